// The stand-in the bundles load for `node:stream/web` (lib/bundling.ts `alias`), and the real module.
const lazy = require('../../../lib/lazy-web-streams.cjs') as Record<string, unknown>;
const web = require('node:stream/web') as Record<string, unknown>;

describe('lazy web streams', () => {
  it('forwards every export of node:stream/web, each the real one', () => {
    expect(Object.keys(lazy).sort()).toEqual(Object.keys(web).sort());
    for (const [name, value] of Object.entries(web)) expect(lazy[name]).toBe(value);
  });
});
