import { randomFillSync } from 'node:crypto';

/** Bytes drawn from the cryptographic RNG at once: a container's ids and IVs for many requests. */
const POOL_BYTES = 4096;
let pool: Buffer | undefined;
let next = POOL_BYTES;

/**
 * Random bytes for a value that is made public (an id, a GCM IV), each handed out once, from a pool
 * drawn from the cryptographic RNG 4 KiB at a time, as Node pools `randomUUID`'s: every draw of
 * node:crypto is a job with an async resource of its own, which under the Tracer's async hooks costs
 * more than the bytes. Never for a secret (a token's, a signing secret, a key): those are drawn on
 * their own, so that none waits in memory before it exists. The pool fills on its first draw, in a
 * request, never at load, so no snapshot of a loaded container holds bytes a copy of it would hand out
 * again.
 */
export const publicRandomBytes = (count: number): Buffer => {
  if (count > POOL_BYTES) throw new RangeError(`at most ${POOL_BYTES} public random bytes at once`);
  pool ??= Buffer.alloc(POOL_BYTES);
  if (next + count > POOL_BYTES) {
    randomFillSync(pool);
    next = 0;
  }
  const bytes = Buffer.copyBytesFrom(pool, next, count);
  next += count;
  return bytes;
};
