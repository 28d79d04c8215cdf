// Who is making a request: the account a credential resolves to.

/** How the caller authenticated. */
export type CredentialKind = 'apikey' | 'client' | 'subject';

/** An authenticated, granted account. `id` is what resources record as their owner. */
export interface Principal {
  readonly id: string;
  readonly kind: CredentialKind;
  readonly admin: boolean;
}

/** Whether `p` may write a resource owned by `owner`. */
export function mayWrite(p: Principal, owner: string): boolean {
  return p.admin || p.id === owner;
}
