// Server-side state with an owner and an idle expiry: open transactions and pinned select cursors.
import { randomBytes } from 'node:crypto';
import { ApiError } from '../errors.js';

/** One held item. */
interface Lease<T> {
  readonly value: T;
  readonly table: string;
  readonly owner: string;
  timer: NodeJS.Timeout;
  /** When the idle timer fires (ms since the epoch): the last use plus `idleMs`. */
  expires: number;
}

/** Why `get` found nothing usable. */
export type LeaseMiss = 'unknown' | 'expired' | 'deleted' | 'table' | 'owner';

/** Most items one account may hold at once (so no account can push another's out of a full map). */
export const PER_OWNER = 100;

/** Per-account limits of a `Leases`. */
export interface LeaseLimits {
  /** Default `PER_OWNER`. */
  readonly perOwner?: number;
  /** What the items are, for the refusal message ("open transactions"). */
  readonly what?: string;
  /** At the limit, expire the account's own oldest item instead of refusing (for cursors a client may abandon). */
  readonly evictOwn?: boolean;
  /** A new item's id; default 32 random hex digits. */
  readonly newId?: () => string;
}

/**
 * Items keyed by a random id, each belonging to a table and an account, dropped (and `onExpire`d)
 * after `idleMs` without use. Recently expired ids are remembered so callers can say "expired".
 * At most `max` items are held (the oldest expires to make room) and at most `perOwner` per
 * account: one more is refused with a 409 naming `what`, or (`evictOwn`) replaces that account's oldest.
 */
export class Leases<T> {
  private readonly items = new Map<string, Lease<T>>();
  /** Recently expired ids and why: idle (or evicted), or their table's dataset was deleted. */
  private readonly expired = new Map<string, 'expired' | 'deleted'>();
  private readonly owned = new Map<string, number>();

  constructor(
    private readonly idleMs: number,
    private readonly onExpire: (value: T) => void,
    private readonly max = 10_000,
    private readonly limits: LeaseLimits = {},
  ) {}

  add(value: T, table: string, owner: string): string {
    const held = this.owned.get(owner) ?? 0;
    if (held >= (this.limits.perOwner ?? PER_OWNER)) {
      if (!this.limits.evictOwn) {
        throw new ApiError(409, 'TooManyOpen', `this account already holds ${held} ${this.limits.what ?? 'open items'} on this server; finish some first (unused ones are released after ${this.idleMs} ms)`);
      }
      this.expire(this.oldestOf(owner)!);
    }
    if (this.items.size >= this.max) this.expire(this.items.keys().next().value!);
    const id = this.limits.newId?.() ?? randomBytes(16).toString('hex');
    this.items.set(id, { value, table, owner, ...this.timer(id) });
    this.owned.set(owner, (this.owned.get(owner) ?? 0) + 1);
    return id;
  }

  /** The item, its idle clock restarted; or why there is none for this table and account. */
  get(id: string, table: string, owner: string): T | LeaseMiss {
    const lease = this.items.get(id);
    if (!lease) return this.expired.get(id) ?? 'unknown';
    if (lease.table !== table) return 'table';
    if (lease.owner !== owner) return 'owner';
    clearTimeout(lease.timer);
    Object.assign(lease, this.timer(id));
    return lease.value;
  }

  /** When item `id` expires unless used again (ms since the epoch); undefined if it is not held. */
  expiresAt(id: string): number | undefined {
    return this.items.get(id)?.expires;
  }

  /** The items of `table` held by `owner`, oldest first, without restarting their idle clocks. */
  held(table: string, owner: string): { id: string; value: T; expires: number }[] {
    return [...this.items].filter(([, l]) => l.table === table && l.owner === owner).map(([id, l]) => ({ id, value: l.value, expires: l.expires }));
  }

  /** Forgets an item without expiring it. */
  delete(id: string): void {
    const lease = this.items.get(id);
    if (!lease) return;
    clearTimeout(lease.timer);
    this.items.delete(id);
    const held = (this.owned.get(lease.owner) ?? 1) - 1;
    if (held > 0) this.owned.set(lease.owner, held);
    else this.owned.delete(lease.owner);
  }

  /** Expires every item of `table` (its dataset was deleted); later uses of their ids answer "deleted". */
  expireTable(table: string): void {
    for (const [id, lease] of [...this.items]) if (lease.table === table) this.expire(id, 'deleted');
  }

  /** Expires everything (server shutdown). */
  close(): void {
    for (const id of [...this.items.keys()]) this.expire(id);
  }

  private timer(id: string): { timer: NodeJS.Timeout; expires: number } {
    const timer = setTimeout(() => this.expire(id), this.idleMs);
    timer.unref();
    return { timer, expires: Date.now() + this.idleMs };
  }

  private oldestOf(owner: string): string | undefined {
    for (const [id, lease] of this.items) if (lease.owner === owner) return id;
    return undefined;
  }

  private expire(id: string, why: 'expired' | 'deleted' = 'expired'): void {
    const lease = this.items.get(id);
    if (!lease) return;
    this.delete(id);
    this.expired.set(id, why);
    if (this.expired.size > 100_000) this.expired.delete(this.expired.keys().next().value!);
    this.onExpire(lease.value);
  }
}
