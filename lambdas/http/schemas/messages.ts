import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// zod/mini instead of zod: the same validation at a tenth of the bundle and cold-start cost. Mini
// ships no messages; the English locale gives the `details` their readable text. Every schema
// module imports this one, and every schema lives in a module of its own, so that a bundle builds
// only the schemas its route uses: each costs cold start (`npm run bench`).
z.config(en());
