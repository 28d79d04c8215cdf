// Random secrets, their stored hashes, and constant-time comparison.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** `bytes` random bytes as base64url. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A short random identifier (hex). */
export function randomId(bytes = 8): string {
  return randomBytes(bytes).toString('hex');
}

/** The stored form of a high-entropy secret: SHA-256, hex. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Whether `secret` hashes to `hash`, compared in constant time. */
export function secretMatches(secret: string, hash: string): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
