import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
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

const execFileAsync = promisify(execFile);

/** One load in a fresh Node process: its wall-clock and CPU milliseconds. */
const loadOnce = async (name: string, { file, args }: ReturnType<LoadVariant>) => {
  const { stdout } = await execFileAsync(process.execPath, [...args, '-e', LOAD_SCRIPT, file], {
    env: { PATH: process.env.PATH, ROUTE_RULES: process.env.ROUTE_RULES, ...BUNDLE_ENV },
  }).catch((error: { stderr?: string }) => {
    throw new Error(`${name} failed to load: ${error.stderr ?? error}`);
  });
  const [wall = Number.NaN, cpu = Number.NaN] = stdout.split(' ').map(Number);
  return { wall, cpu };
};

/**
 * Milliseconds to `require()` each bundle in a fresh Node process, `rounds` times for each variant
 * (as deployed, its floor, without a map...), on the CPU and on the wall clock. In each round a bundle's
 * variants load two at a time, in the order given (the function as deployed beside its floor, then the
 * next two), both processes started together, so whatever else the machine does at that moment falls
 * on both sides of the pair, and the two cores of a small machine halve the time. The samples of one
 * round pair up across variants by index: a ratio is taken within each round, and its verdict is the
 * median of those ratios.
 */
export const measureColdLoad = async <V extends string>(
  bundles: readonly Bundle[],
  rounds: number,
  variants: Readonly<Record<V, LoadVariant>>,
  /** Variants loaded only every so many rounds (their samples of the other rounds are NaN). */
  sparse: Partial<Readonly<Record<V, number>>> = {},
): Promise<{ cpu: Record<V, LoadSamples>; wall: Record<V, LoadSamples> }> => {
  const names = Object.keys(variants) as V[];
  const empty = () =>
    Object.fromEntries(
      names.map((variant) => [variant, new Map(bundles.map((bundle) => [bundle.name, [] as number[]]))]),
    ) as Record<V, LoadSamples>;
  const cpu = empty();
  const wall = empty();
  const together = Array.from({ length: Math.ceil(names.length / 2) }, (_, i) => names.slice(2 * i, 2 * i + 2));
  for (let round = 0; round < rounds; round += 1) {
    for (const bundle of bundles) {
      for (const group of together) {
        // Which of the two is started first turns from round to round.
        const started = round % 2 === 0 ? group : [...group].reverse();
        const taken = await Promise.all(
          started.map((variant) =>
            round % (sparse[variant] ?? 1) === 0
              ? loadOnce(bundle.name, variants[variant](bundle))
              : { wall: Number.NaN, cpu: Number.NaN },
          ),
        );
        started.forEach((variant, i) => {
          wall[variant].get(bundle.name)?.push(taken[i]?.wall ?? Number.NaN);
          cpu[variant].get(bundle.name)?.push(taken[i]?.cpu ?? Number.NaN);
        });
      }
    }
  }
  return { cpu, wall };
};
