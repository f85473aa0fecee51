'use strict';

/**
 * Stands in for `node:stream/web` in every bundle (the `alias` of lib/bundling.ts). @middy/core
 * imports web streams at load for its response-streaming mode, which no route uses; loading them at
 * once lengthens every function's cold start, measured by `npm run bench` (cold load).
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
