import { spawnSync } from 'node:child_process';
import type { Bundle } from './build';
import { BUNDLE_ENV } from './fixtures';

/**
 * Requires the bundle named and prints the milliseconds it took: on the wall clock, and on the CPU (all
 * of the process's threads: parsing, compiling and running the modules, and the collector).
 */
const LOAD_SCRIPT = [
  'const cpu=process.cpuUsage();const t=process.hrtime.bigint();',
  'require(process.argv[1]);',
  'const wall=Number(process.hrtime.bigint()-t)/1e6;const used=process.cpuUsage(cpu);',
  'process.stdout.write(wall+" "+(used.user+used.system)/1000)',
].join('');

/** Samples of one way of starting Node: bundle name → milliseconds. */
export type LoadSamples = Map<string, number[]>;

/** A way of loading a bundle: which of its files, with which Node arguments. */
export type LoadVariant = (bundle: Bundle) => { readonly file: string; readonly args: readonly string[] };

/**
 * Milliseconds to `require()` each bundle in a fresh Node process, `rounds` times for each variant
 * (as deployed, its floor, without a map...), on the CPU and on the wall clock. Each round loads one
 * bundle under every variant back to back before the next bundle, so a noisy moment of the machine
 * falls on a function and its floor alike, and the samples of one round pair up across variants by
 * index: a ratio is taken within each round, and its verdict is the median of those ratios.
 */
export const measureColdLoad = <V extends string>(
  bundles: readonly Bundle[],
  rounds: number,
  variants: Readonly<Record<V, LoadVariant>>,
  /** Variants loaded only every so many rounds (their samples of the other rounds are NaN). */
  sparse: Partial<Readonly<Record<V, number>>> = {},
): { cpu: Record<V, LoadSamples>; wall: Record<V, LoadSamples> } => {
  const names = Object.keys(variants) as V[];
  const empty = () =>
    Object.fromEntries(
      names.map((variant) => [variant, new Map(bundles.map((bundle) => [bundle.name, [] as number[]]))]),
    ) as Record<V, LoadSamples>;
  const cpu = empty();
  const wall = empty();
  for (let round = 0; round < rounds; round += 1) {
    for (const bundle of bundles) {
      // Each round starts with another variant, so no variant always runs after the same one.
      for (const variant of [...names.slice(round % names.length), ...names.slice(0, round % names.length)]) {
        if (round % (sparse[variant] ?? 1) !== 0) {
          wall[variant].get(bundle.name)?.push(Number.NaN);
          cpu[variant].get(bundle.name)?.push(Number.NaN);
          continue;
        }
        const { file, args } = variants[variant](bundle);
        const child = spawnSync(process.execPath, [...args, '-e', LOAD_SCRIPT, file], {
          env: { PATH: process.env.PATH, ROUTE_RULES: process.env.ROUTE_RULES, ...BUNDLE_ENV },
          encoding: 'utf8',
        });
        if (child.status !== 0) throw new Error(`${bundle.name} failed to load: ${child.stderr}`);
        const [wallMs, cpuMs] = child.stdout.split(' ').map(Number);
        wall[variant].get(bundle.name)?.push(wallMs ?? Number.NaN);
        cpu[variant].get(bundle.name)?.push(cpuMs ?? Number.NaN);
      }
    }
  }
  return { cpu, wall };
};
