import { randomFillSync } from 'node:crypto';

/** Bytes drawn from the cryptographic RNG at once: a container's ids, IVs and token secrets for many requests. */
const POOL_BYTES = 4096;
let pool: Buffer | undefined;
let next = POOL_BYTES;

/**
 * Random bytes, each handed out once, from a pool drawn from the cryptographic RNG 4 KiB at a time (a
 * larger count is drawn on its own), as Node pools `randomUUID`'s: every draw of node:crypto is a job
 * with an async resource of its own, which under the Tracer's async hooks costs more than the bytes.
 * Bytes waiting in the pool are no more exposed than the generator's own state, which lives in the
 * same memory and decides its next output. The pool fills on its first draw, in a request, never at
 * load, so no snapshot of a loaded container holds bytes a copy of it would hand out again.
 */
export const pooledRandomBytes = (count: number): Buffer => {
  if (count > POOL_BYTES) return randomFillSync(Buffer.alloc(count));
  pool ??= Buffer.alloc(POOL_BYTES);
  if (next + count > POOL_BYTES) {
    randomFillSync(pool);
    next = 0;
  }
  const bytes = Buffer.copyBytesFrom(pool, next, count);
  // A byte handed out leaves nothing behind: the pool holds only bytes still to come.
  pool.fill(0, next, next + count);
  next += count;
  return bytes;
};
