// Manifest validation: header (kind, version, metadata) then the spec of its resource type.
import type { Kinds, ResourceType } from '../kinds.js';
import type { Manifest } from '../resource.js';
import { validateHeader } from './common.js';
import { type Exists, validateSpec } from './spec.js';

export type { Exists } from './spec.js';

/**
 * A validated manifest, or a 400 `InvalidManifest` naming the first bad field.
 * @example
 * validateManifest(req.body, kindsFor('example.io'), (kind, name) => catalog.getByName(kind, name) !== undefined)
 */
export function validateManifest(body: unknown, kinds: Kinds, exists: Exists): { type: ResourceType; manifest: Manifest } {
  const out = validateHeader(body, kinds);
  validateSpec(out.type, out.manifest.spec as Record<string, unknown>, kinds, exists);
  return out;
}
