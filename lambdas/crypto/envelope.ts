/**
 * Envelope encryption of secret values, the one way a value is encrypted or decrypted: AES-256-GCM
 * under a data key per project, that key stored wrapped by a `KeyWrapper` (KMS in AWS, a local key
 * elsewhere).
 *
 * Direct KMS calls with `node:crypto`, not the AWS Encryption SDK, by measurement: added to a function
 * that already loads the DynamoDB client, the SDK cost many times the bundle bytes and cold-load time
 * that the KMS client and `node:crypto` do, and its ESM build fails at load, all for message framing,
 * signing and keyrings that a data key per project does not use (figures in docs/performance.md,
 * "Envelope encryption").
 */
import { type Clock, clock as serviceClock } from '@lambdas/domain/clock';
import { DecryptionError } from '@lambdas/domain/errors';
import { KEY_BYTES, openBytes, sealBytes } from './aes-gcm';

/**
 * Which copy of a value an item holds: the head's (the secret's current value), its version's own, or a
 * change request's proposal (its `life` is then the request's id, its version 0).
 */
export type ValueCopy = 'head' | 'version' | 'proposal';

/**
 * Where a value belongs; bound to its ciphertext, so a ciphertext moved to another item does not
 * decrypt: another project, environment, name or version, another life of the secret (a name written
 * again after its 30 days), or the other copy (a version's value is no head's, so a head rewritten to
 * an older version's number and ciphertext is refused).
 */
export interface ValueAddress {
  readonly projectId: string;
  readonly environment: string;
  readonly name: string;
  /** The life of the secret the value belongs to (`life` of its head, in its versions' keys). */
  readonly life: string;
  readonly version: number;
  readonly copy: ValueCopy;
}

/**
 * The binding of every value sealed now, stored as the item's `binding` beside its ciphertext. An item
 * without one was sealed before lives and copies were bound: its additional data is the legacy one.
 */
export const VALUE_BINDING = 2;

/** A value as an item stores it: its ciphertext and, unless sealed with the legacy binding, `binding`. */
export interface SealedValue {
  readonly ciphertext: Uint8Array;
  readonly binding?: number;
}

const COPY_NAMES: Readonly<Record<ValueCopy, string>> = {
  head: 'the head',
  version: 'a version',
  proposal: 'a change request',
};

/** How an error names a value's item: its address, its copy and its binding, never its value. */
const describe = (address: ValueAddress, binding: number | undefined): string =>
  `The value of ${address.projectId}/${address.environment}/${address.name} version ${address.version} ` +
  `(${COPY_NAMES[address.copy]}, life ${address.life}` +
  `${binding === undefined ? ', sealed before lives were bound' : ''})`;

/**
 * The additional data of a value, built here only: the JSON of its address, whose quoting keeps every
 * part apart. `binding` is the item's: `VALUE_BINDING` binds the copy and the life too; none (an item
 * sealed before them) binds `[project, environment, name, version]`, byte for byte as it was sealed.
 * The two never coincide (arrays of other lengths), so adding or removing `binding` opens nothing.
 */
export const additionalData = (address: ValueAddress, binding: number | undefined): Buffer => {
  const { projectId, environment, name, life, version, copy } = address;
  if (binding === undefined) return Buffer.from(JSON.stringify([projectId, environment, name, version]), 'utf8');
  if (binding !== VALUE_BINDING)
    throw new DecryptionError(`${describe(address, binding)} has an unknown binding ${binding}`);
  return Buffer.from(JSON.stringify([VALUE_BINDING, copy, projectId, environment, name, life, version]), 'utf8');
};

/** `value` encrypted under the project's data key for `address`, with the binding to store beside it. */
export const encryptValue = (key: Uint8Array, address: ValueAddress, value: string): Required<SealedValue> => ({
  ciphertext: sealBytes(key, additionalData(address, VALUE_BINDING), Buffer.from(value, 'utf8')),
  binding: VALUE_BINDING,
});

/**
 * The value `encryptValue` encrypted for `address` (or the service sealed before bindings, when the
 * item has none); a `DecryptionError` naming the item and its copy when the bytes were changed, were
 * stored for another address, copy or life, or were encrypted under another key.
 */
export const decryptValue = (key: Uint8Array, address: ValueAddress, stored: SealedValue): string =>
  openBytes(
    key,
    additionalData(address, stored.binding),
    stored.ciphertext,
    describe(address, stored.binding),
  ).toString('utf8');

/** A data key as made: the plaintext to encrypt with, and its wrapped form, the only one that is stored. */
export interface WrappedDataKey {
  readonly plaintext: Uint8Array;
  readonly wrapped: Uint8Array;
}

/**
 * Wraps projects' data keys (KMS in AWS, a local key elsewhere: `key-wrapper.ts` chooses). A key
 * wrapped for one project unwraps for no other.
 */
export interface KeyWrapper {
  /** A new 32-byte data key for the project. */
  generate(projectId: string): Promise<WrappedDataKey>;
  /** The plaintext of a data key wrapped for the project. */
  unwrap(projectId: string, wrapped: Uint8Array): Promise<Uint8Array>;
}

/** A project's data key as `dataKeyFor` answers it: `created` when it is new and its `wrapped` must be stored. */
export interface DataKey extends WrappedDataKey {
  readonly created: boolean;
}

/** The projects' data keys, unwrapped at most once per project per `DATA_KEY_REUSE_MS`. */
export interface DataKeys {
  /**
   * The project's data key: the stored one when `wrapped` is given, else a new one (`created`), whose
   * `wrapped` the caller stores with the first value it encrypts.
   */
  dataKeyFor(projectId: string, wrapped: Uint8Array | undefined): Promise<DataKey>;
}

/**
 * How long an unwrapped data key is used, from its unwrapping: five minutes, so a warm function makes
 * no KMS call for a project it served within the last five minutes, and a key disabled, revoked or no
 * longer granted in KMS stops decrypting within five minutes.
 */
export const DATA_KEY_REUSE_MS = 5 * 60 * 1000;
/**
 * Projects whose keys one function keeps, the least recently used leaving first: a bound on memory
 * (a few hundred bytes each) that a function serving more projects than this in five minutes only
 * pays for in KMS calls.
 */
export const DATA_KEY_CACHE_PROJECTS = 1000;

/** Settings of `dataKeys`, for tests: the clock, and the number of projects kept. */
export interface DataKeysOptions {
  readonly clock?: Clock;
  readonly maxProjects?: number;
}

interface CachedKey {
  readonly plaintext: Uint8Array;
  readonly wrapped: Uint8Array;
  readonly since: number;
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);

/**
 * Data keys through `wrapper`, each kept per project for `DATA_KEY_REUSE_MS`. An entry answers only the
 * wrapped key it was made from: a key generated by a write that then lost the race to store it is
 * never used for the key that was stored.
 */
export const dataKeys = (wrapper: KeyWrapper, options: DataKeysOptions = {}): DataKeys => {
  const clock = options.clock ?? serviceClock;
  const maxProjects = options.maxProjects ?? DATA_KEY_CACHE_PROJECTS;
  // A Map iterates in insertion order: re-inserting an entry on use keeps the least recently used first.
  const cache = new Map<string, CachedKey>();

  const keep = (projectId: string, entry: CachedKey): void => {
    cache.delete(projectId);
    cache.set(projectId, entry);
    if (cache.size > maxProjects) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
  };

  return {
    dataKeyFor: async (projectId, wrapped) => {
      const now = clock.now().getTime();
      if (wrapped === undefined) {
        const made = await wrapper.generate(projectId);
        if (made.plaintext.byteLength !== KEY_BYTES) {
          throw new DecryptionError(`The new data key of project ${projectId} is not ${KEY_BYTES} bytes`);
        }
        keep(projectId, { plaintext: made.plaintext, wrapped: Uint8Array.from(made.wrapped), since: now });
        return { plaintext: made.plaintext, wrapped: made.wrapped, created: true };
      }
      const cached = cache.get(projectId);
      const age = cached === undefined ? -1 : now - cached.since;
      if (cached !== undefined && age >= 0 && age < DATA_KEY_REUSE_MS && sameBytes(cached.wrapped, wrapped)) {
        keep(projectId, cached);
        return { plaintext: cached.plaintext, wrapped, created: false };
      }
      const plaintext = await wrapper.unwrap(projectId, wrapped);
      if (plaintext.byteLength !== KEY_BYTES) {
        throw new DecryptionError(`The data key of project ${projectId} is not ${KEY_BYTES} bytes`);
      }
      keep(projectId, { plaintext, wrapped: Uint8Array.from(wrapped), since: now });
      return { plaintext, wrapped, created: false };
    },
  };
};

/**
 * The additional data of a webhook's signing secret: its project and webhook, so a sealed secret moved
 * to another webhook does not open. Its array starts with a text, where a value's starts with a number
 * or is four long, so it never coincides with a value's.
 */
const webhookSecretData = (projectId: string, webhookId: string): Buffer =>
  Buffer.from(JSON.stringify(['webhook-secret', projectId, webhookId]), 'utf8');

/** A webhook's signing secret sealed under its project's data key. */
export const encryptWebhookSecret = (key: Uint8Array, projectId: string, webhookId: string, secret: string): Buffer =>
  sealBytes(key, webhookSecretData(projectId, webhookId), Buffer.from(secret, 'utf8'));

/** The signing secret `encryptWebhookSecret` sealed for this webhook; a `DecryptionError` naming it otherwise. */
export const decryptWebhookSecret = (
  key: Uint8Array,
  projectId: string,
  webhookId: string,
  sealed: Uint8Array,
): string =>
  openBytes(
    key,
    webhookSecretData(projectId, webhookId),
    sealed,
    `The signing secret of webhook ${projectId}/${webhookId}`,
  ).toString('utf8');
