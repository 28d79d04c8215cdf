// The wire shape of a catalog resource (a manifest plus what the server fills in).

/** `metadata` of a manifest; `uuid` is assigned by the server. */
export interface ResourceMetadata {
  readonly name: string;
  readonly uuid: string;
  readonly display_name?: string;
  readonly description?: string;
  readonly labels?: Readonly<Record<string, boolean>>;
}

/** Change history the server keeps; times are ISO 8601 UTC. */
export interface ResourceStatus {
  readonly num_updates: number;
  readonly created_by: string;
  readonly created_time: string;
  readonly updated_by: string;
  readonly updated_time: string;
}

/** A catalog resource exactly as the API returns it. Treat as immutable. */
export interface Resource {
  readonly kind: string;
  readonly version: string;
  readonly metadata: ResourceMetadata;
  readonly spec: Readonly<Record<string, unknown>>;
  readonly owner: string;
  readonly status: ResourceStatus;
}

/** A validated manifest before the server assigns uuid, owner and status. */
export interface Manifest {
  readonly kind: string;
  readonly version: string;
  readonly metadata: Omit<ResourceMetadata, 'uuid'> & { readonly uuid?: string };
  readonly spec: Readonly<Record<string, unknown>>;
}

/** A catalog change, as delivered to `onChange` listeners. */
export type CatalogChange = { readonly type: 'put'; readonly resource: Resource } | { readonly type: 'delete'; readonly uuid: string; readonly resource: Resource };
