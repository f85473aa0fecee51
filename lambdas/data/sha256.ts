import { createHmac, hash } from 'node:crypto';

/** What the SDK hands a hash: text (in an encoding), or bytes. */
type SourceData = string | ArrayBuffer | ArrayBufferView;

const toBuffer = (data: SourceData, encoding?: BufferEncoding): Buffer => {
  if (typeof data === 'string') return Buffer.from(data, encoding ?? 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(data);
};

/**
 * SHA-256 and HMAC-SHA256 for the DynamoDB client's request signer, in place of the SDK's class.
 * That class makes a native hash object for every digest, each a handle the garbage collector must
 * finalise, which lengthens a warm authorizer's scavenge pauses and its tail latency, measured by
 * `npm run bench` (end to end, p99 / p50). A plain digest here is one call of `crypto.hash` on the
 * bytes collected; a keyed one (the signature) stays on `createHmac`.
 */
export class Sha256 {
  private chunks: Buffer[] = [];

  constructor(private readonly secret?: SourceData) {}

  update(data: SourceData, encoding?: BufferEncoding): void {
    this.chunks.push(toBuffer(data, encoding));
  }

  digest(): Promise<Uint8Array> {
    const data = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
    return Promise.resolve(
      this.secret === undefined
        ? hash('sha256', data, 'buffer')
        : createHmac('sha256', toBuffer(this.secret)).update(data).digest(),
    );
  }

  reset(): void {
    this.chunks = [];
  }
}
