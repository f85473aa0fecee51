import { spawnSync } from 'node:child_process';
import type { Bundle } from './build';
import { BUNDLE_ENV } from './fixtures';

const LOAD_SCRIPT =
  'const t=process.hrtime.bigint();require(process.argv[1]);process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))';

/** Samples of one way of starting Node: bundle name → milliseconds. */
export type LoadSamples = Map<string, number[]>;

/** A way of loading a bundle: which of its files, with which Node arguments. */
export type LoadVariant = (bundle: Bundle) => { readonly file: string; readonly args: readonly string[] };

/**
 * Milliseconds to `require()` each bundle in a fresh Node process, `rounds` times for each variant.
 * Each round visits every bundle under every variant in turn, so a noisy moment of the machine
 * falls on all of them alike, and the samples of one round pair up across variants by index.
 */
export const measureColdLoad = <V extends string>(
  bundles: readonly Bundle[],
  rounds: number,
  variants: Readonly<Record<V, LoadVariant>>,
): Record<V, LoadSamples> => {
  const names = Object.keys(variants) as V[];
  const samples = Object.fromEntries(
    names.map((variant) => [variant, new Map(bundles.map((bundle) => [bundle.name, [] as number[]]))]),
  ) as Record<V, LoadSamples>;
  for (let round = 0; round < rounds; round += 1) {
    for (const bundle of bundles) {
      // Each round starts with another variant, so no variant always runs after the same one.
      for (const variant of [...names.slice(round % names.length), ...names.slice(0, round % names.length)]) {
        const { file, args } = variants[variant](bundle);
        const child = spawnSync(process.execPath, [...args, '-e', LOAD_SCRIPT, file], {
          env: { PATH: process.env.PATH, ...BUNDLE_ENV },
          encoding: 'utf8',
        });
        if (child.status !== 0) throw new Error(`${bundle.name} failed to load: ${child.stderr}`);
        samples[variant].get(bundle.name)?.push(Number(child.stdout));
      }
    }
  }
  return samples;
};
