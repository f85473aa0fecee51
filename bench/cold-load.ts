import { spawnSync } from 'node:child_process';
import type { Bundle } from './build';
import { BUNDLE_ENV } from './fixtures';

const LOAD_SCRIPT =
  'const t=process.hrtime.bigint();require(process.argv[1]);process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))';

/**
 * Milliseconds to `require()` each bundle in a fresh Node process, `rounds` times. Rounds visit the
 * bundles in turn, so a noisy moment of the machine falls on all of them alike.
 */
export const measureColdLoad = (bundles: readonly Bundle[], rounds: number, nodeArgs: string[] = []) => {
  const samples = new Map<string, number[]>(bundles.map((bundle) => [bundle.name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const bundle of bundles) {
      const child = spawnSync(process.execPath, [...nodeArgs, '-e', LOAD_SCRIPT, bundle.file], {
        env: { PATH: process.env.PATH, ...BUNDLE_ENV },
        encoding: 'utf8',
      });
      if (child.status !== 0) throw new Error(`${bundle.name} failed to load: ${child.stderr}`);
      samples.get(bundle.name)?.push(Number(child.stdout));
    }
  }
  return samples;
};
