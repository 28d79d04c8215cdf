// Server-side state with an owner and an idle expiry: open transactions and pinned select cursors.
import { randomBytes } from 'node:crypto';

/** One held item. */
interface Lease<T> {
  readonly value: T;
  readonly table: string;
  readonly owner: string;
  timer: NodeJS.Timeout;
}

/** Why `get` found nothing usable. */
export type LeaseMiss = 'unknown' | 'expired' | 'table' | 'owner';

/**
 * Items keyed by a random id, each belonging to a table and an account, dropped (and `onExpire`d)
 * after `idleMs` without use. Recently expired ids are remembered so callers can say "expired".
 */
export class Leases<T> {
  private readonly items = new Map<string, Lease<T>>();
  private readonly expired = new Set<string>();

  constructor(
    private readonly idleMs: number,
    private readonly onExpire: (value: T) => void,
    private readonly max = 10_000,
  ) {}

  add(value: T, table: string, owner: string): string {
    if (this.items.size >= this.max) this.expire(this.items.keys().next().value!);
    const id = randomBytes(16).toString('hex');
    this.items.set(id, { value, table, owner, timer: this.timer(id) });
    return id;
  }

  /** The item, its idle clock restarted; or why there is none for this table and account. */
  get(id: string, table: string, owner: string): T | LeaseMiss {
    const lease = this.items.get(id);
    if (!lease) return this.expired.has(id) ? 'expired' : 'unknown';
    if (lease.table !== table) return 'table';
    if (lease.owner !== owner) return 'owner';
    clearTimeout(lease.timer);
    lease.timer = this.timer(id);
    return lease.value;
  }

  /** Forgets an item without expiring it. */
  delete(id: string): void {
    const lease = this.items.get(id);
    if (lease) clearTimeout(lease.timer);
    this.items.delete(id);
  }

  /** Expires everything (server shutdown). */
  close(): void {
    for (const id of [...this.items.keys()]) this.expire(id);
  }

  private timer(id: string): NodeJS.Timeout {
    const t = setTimeout(() => this.expire(id), this.idleMs);
    t.unref();
    return t;
  }

  private expire(id: string): void {
    const lease = this.items.get(id);
    if (!lease) return;
    this.delete(id);
    this.expired.add(id);
    if (this.expired.size > 100_000) this.expired.delete(this.expired.values().next().value!);
    this.onExpire(lease.value);
  }
}
