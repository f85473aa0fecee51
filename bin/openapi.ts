import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { apiDocument } from '@lib/api-document';

/** `npm run openapi [-- <file>]`: writes the generated OpenAPI document (default `openapi.json`). */
const target = resolve(process.argv[2] ?? 'openapi.json');
writeFileSync(target, `${JSON.stringify(apiDocument(), null, 2)}\n`);
console.log(`OpenAPI document written to ${target}`);
