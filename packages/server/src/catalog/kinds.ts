// Kind, storage and observable-class identifiers for one group domain (`example.io` by default).

/** The identifiers of a deployment, derived from its domain. */
export interface Kinds {
  readonly domain: string;
  readonly dataset: string;
  readonly dataCollection: string;
  readonly observable: string;
  readonly rawController: string;
  readonly rawClass: string;
  readonly tabularController: string;
  readonly tabularClass: string;
  readonly staticCoverage: string;
  readonly staticGeometricCoverage: string;
}

/** Supported manifest version per kind. */
export type ResourceType = 'dataset' | 'dataCollection' | 'observable';
export const VERSIONS: Record<ResourceType, string> = { dataset: 'v1alpha3', dataCollection: 'v1alpha1', observable: 'v1alpha2' };

/** The identifiers for `domain`. */
export function kindsFor(domain: string): Kinds {
  const catalog = `catalog.${domain}`;
  const registry = `registry.${domain}`;
  return {
    domain,
    dataset: `${catalog}/dataset`,
    dataCollection: `${catalog}/dataCollection`,
    observable: `${catalog}/observable`,
    rawController: `${registry}/storageController/storage-raw-cdffs`,
    rawClass: `${registry}/storageClass/raw`,
    tabularController: `${registry}/storageController/storage-tabular`,
    tabularClass: `${registry}/storageClass/tabular`,
    staticCoverage: `${catalog}/observableClass/static-coverage`,
    staticGeometricCoverage: `${catalog}/observableClass/static-geometric-coverage`,
  };
}

/** The resource type of a kind string, or undefined for an unknown kind. */
export function typeOfKind(kinds: Kinds, kind: string): ResourceType | undefined {
  if (kind === kinds.dataset) return 'dataset';
  if (kind === kinds.dataCollection) return 'dataCollection';
  if (kind === kinds.observable) return 'observable';
  return undefined;
}
