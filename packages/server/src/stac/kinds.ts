// Resource kinds and references of one catalog domain (`catalog.<domain>/dataset` and friends).

/** The kind strings and reference prefixes of a domain. */
export interface Kinds {
  readonly dataset: string;
  readonly collection: string;
  readonly observable: string;
  readonly geometricCoverage: string;
  readonly coverage: string;
  /** The name in a `catalog.<domain>/dataset/<name>` reference, or undefined when it is not one. */
  datasetRef(ref: unknown): string | undefined;
  /** The name in a `catalog.<domain>/dataCollection/<name>` reference, or undefined. */
  collectionRef(ref: unknown): string | undefined;
}

/**
 * Kinds for a domain such as `example.io`.
 * @example
 * kindsOf('example.io').dataset // 'catalog.example.io/dataset'
 */
export function kindsOf(domain: string): Kinds {
  const group = `catalog.${domain}`;
  const dataset = `${group}/dataset`;
  const collection = `${group}/dataCollection`;
  return {
    dataset,
    collection,
    observable: `${group}/observable`,
    geometricCoverage: `${group}/observableClass/static-geometric-coverage`,
    coverage: `${group}/observableClass/static-coverage`,
    datasetRef: (ref) => suffix(ref, `${dataset}/`),
    collectionRef: (ref) => suffix(ref, `${collection}/`),
  };
}

function suffix(ref: unknown, prefix: string): string | undefined {
  if (typeof ref !== 'string' || !ref.startsWith(prefix) || ref.length === prefix.length) return undefined;
  return ref.slice(prefix.length);
}
