// What the route modules share: configuration, stores and the authenticator.
import type { Store } from '@halocline/engine';
import type { AccessStore } from '../auth/access.js';
import type { Authenticator } from '../auth/authenticate.js';
import type { CatalogStore } from '../catalog/store.js';
import type { Kinds } from '../catalog/kinds.js';
import type { ServerConfig } from '../config.js';
import type { ServerDb } from '../db.js';
import type { RawFileStore } from '../files/store.js';
import type { ListScan } from '../tabular-v1/list.js';
import type { Stage } from '../tabular-v1/stages.js';
import type { Leases } from '../tabular-v2/leases.js';
import type { Pinned } from '../tabular-v2/stream.js';
import type { TxHandle } from '../tabular-v2/tx-routes.js';
import type { WriteGate } from './write-gate.js';

/** Services built once per app and handed to each area's routes. */
export interface AppContext {
  readonly config: ServerConfig;
  readonly kinds: Kinds;
  readonly store: Store;
  readonly db: ServerDb;
  readonly catalog: CatalogStore;
  readonly access: AccessStore;
  readonly files: RawFileStore;
  readonly authenticate: Authenticator;
  /** Tabular v1 listings parked at their continuation cursor, each on its own snapshot. */
  readonly listCursors: Leases<ListScan>;
  /** Tabular v1 stages (open transactions) by id, owned by dataset and account, rolled back when idle. */
  readonly stages: Leases<Stage>;
  /** Tabular v2 transactions by id, owned by table and account, rolled back when idle. */
  readonly txs: Leases<TxHandle>;
  /** Tabular v2 select cursors parked at their continuation, each pinning its snapshot. */
  readonly selectCursors: Leases<Pinned>;
  /** Writes in flight per dataset; a dataset delete closes it (cancels and waits for them). */
  readonly writes: WriteGate;
}
