'use strict';

/**
 * Stands in for `node:stream/web` in every bundle (the `alias` of lib/bundling.ts). @middy/core
 * imports web streams at load for its response-streaming mode, which no route uses; Node loads
 * them lazily, and loading them at once costs about 0.9 ms of every cold start (`npm run bench`).
 * Each export is fetched from the real module on first use. The unprefixed `stream/web` reaches
 * the real module: the alias only replaces the exact name `node:stream/web`.
 */
const EXPORTS = [
  'ReadableStream',
  'ReadableStreamDefaultReader',
  'ReadableStreamBYOBReader',
  'ReadableStreamBYOBRequest',
  'ReadableByteStreamController',
  'ReadableStreamDefaultController',
  'TransformStream',
  'TransformStreamDefaultController',
  'WritableStream',
  'WritableStreamDefaultWriter',
  'WritableStreamDefaultController',
  'ByteLengthQueuingStrategy',
  'CountQueuingStrategy',
  'TextEncoderStream',
  'TextDecoderStream',
  'CompressionStream',
  'DecompressionStream',
];

for (const name of EXPORTS) {
  // biome-ignore lint/style/useNodejsImportProtocol: `node:stream/web` would be this very module again.
  Object.defineProperty(exports, name, { enumerable: true, get: () => require('stream/web')[name] });
}
