/**
 * `npm run generate:client`: writes the typed client's types from the route contracts
 * (bin/client-types.ts). `-- --check` changes nothing and exits 1 when the file is out of date.
 */
import { syncClientTypes } from './client-types';

void syncClientTypes(process.argv.includes('--check'), 'npm run generate:client');
