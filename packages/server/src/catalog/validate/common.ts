// Validation of kind, version and metadata, shared by every resource type.
import { type Kinds, type ResourceType, VERSIONS, typeOfKind } from '../kinds.js';
import type { Manifest } from '../resource.js';
import { invalid, isObject, object, optionalString, show, string } from './check.js';

export const NAME = /^[a-zA-Z0-9][a-zA-Z0-9\-_.]*$/;
export const KIND = /^[^/\s]+\/[^/\s]+$/;
const VERSION = /^v[0-9]+((alpha|beta)[0-9]+)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KNOWN_TOP = new Set(['kind', 'version', 'metadata', 'spec', 'owner', 'status']);

/** Kind, version and metadata of a manifest body; `spec` still unchecked. */
export function validateHeader(body: unknown, kinds: Kinds): { type: ResourceType; manifest: Manifest } {
  const m = object(body, 'manifest');
  for (const k of Object.keys(m)) if (!KNOWN_TOP.has(k)) throw invalid(k, 'unknown top-level field (expected kind, version, metadata, spec)');
  const kind = string(m.kind, 'kind', { pattern: KIND, hint: '<group>/<type>' });
  const type = typeOfKind(kinds, kind);
  if (!type) throw invalid('kind', `unknown kind ${show(kind)}; expected ${kinds.dataset}, ${kinds.dataCollection} or ${kinds.observable}`);
  const version = string(m.version, 'version', { pattern: VERSION, hint: 'v<n>[alpha|beta<n>]' });
  if (version !== VERSIONS[type]) throw invalid('version', `${kind} supports version ${VERSIONS[type]}, got ${show(version)}`);
  const md = object(m.metadata, 'metadata');
  const name = string(md.name, 'metadata.name', { pattern: NAME, hint: 'a letter or digit followed by letters, digits, -, _ or .', max: 255 });
  const labels = md.labels;
  if (labels !== undefined && labels !== null) {
    if (!isObject(labels)) throw invalid('metadata.labels', `expected an object of label name to boolean, got ${show(labels)}`);
    for (const [k, v] of Object.entries(labels)) if (typeof v !== 'boolean') throw invalid(`metadata.labels.${k}`, `expected a boolean, got ${show(v)}`);
  }
  for (const k of Object.keys(md)) {
    // `owner` is what some clients send back from a read; the server keeps the recorded owner
    if (!['name', 'uuid', 'display_name', 'description', 'labels', 'owner'].includes(k)) throw invalid(`metadata.${k}`, 'unknown field (expected name, uuid, display_name, description, labels)');
  }
  const uuid = optionalString(md.uuid, 'metadata.uuid');
  if (uuid !== undefined && !UUID.test(uuid)) throw invalid('metadata.uuid', `expected a UUID such as 0b6c…-…, got ${show(uuid)}`);
  const metadata = {
    name,
    ...(uuid !== undefined ? { uuid } : {}),
    ...opt('display_name', optionalString(md.display_name, 'metadata.display_name')),
    ...opt('description', optionalString(md.description, 'metadata.description')),
    ...(isObject(labels) ? { labels: labels as Record<string, boolean> } : {}),
  };
  const spec = m.spec === undefined ? {} : object(m.spec, 'spec');
  return { type, manifest: { kind, version, metadata, spec } };
}

function opt<K extends string>(k: K, v: string | undefined): { [P in K]?: string } {
  return (v === undefined ? {} : { [k]: v }) as { [P in K]?: string };
}
