/**
 * `npm run bench`: every figure as a ratio against a floor taken in the same run, so the numbers
 * hold on a noisy machine. Prints a table, writes bench/results.json and exits non-zero when a
 * ratio misses its target.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { routeRulesJson } from '../contract/route-table';
import { routes } from '../contract/routes';
import { runtimeNodeOptions } from '../lib/bundling';
import { createTable } from '../local/create-table';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { type Bundle, buildBundles, buildScript, functionEntries } from './build';
import { type LoadSamples, measureColdLoad } from './cold-load';
import { costPerMillion, FLOOR_DOLLARS_PER_MILLION, KMS_KEY_DOLLARS_PER_MONTH, routeFloorPerMillion } from './cost';
import { BUNDLE_ENV } from './fixtures';
import { COLD, SOURCE_MAP_TAX } from './sampling';
import { median, medianInterval, needsMore, pairedRatios, quantile } from './stats';
import type { Measured } from './warm-cpu';
import { measureWorkAgainst } from './work-run';

/** One line of bench/results.json. */
interface Result {
  name: string;
  value: number;
  unit: string;
  floor: number;
  ratio: number;
  target: number;
  /** For a ratio of interleaved samples: the 95 % confidence interval of its median, and how many pairs. */
  interval?: [number, number];
  pairs?: number;
  /**
   * True when the interval still holds the target after the most samples the rule allows
   * (bench/sampling.ts): the verdict is the median's, as before, and may differ in the next run.
   */
  open?: boolean;
}

const results: Result[] = [];
/** Whether a ratio's interval holds its target (within no margin): its verdict is the median's alone. */
const holds = (ratios: readonly number[], target: number) => {
  const [low, high] = medianInterval(ratios);
  return Number.isFinite(target) && low <= target && target <= high;
};
const record = (name: string, value: number, unit: string, floor: number, target: number) => {
  // Nothing against a floor of nothing (a route that needs no DynamoDB call) is exactly the floor.
  results.push({ name, value, unit, floor, ratio: value === floor ? 1 : value / floor, target });
};
/**
 * A ratio of interleaved samples: each sample over the floor sample taken beside it, and the verdict
 * on the median of those ratios; the value and floor shown are each side's own median.
 */
const recordPaired = (name: string, samples: number[], floors: number[], unit: string, target: number) => {
  const ratios = pairedRatios(samples, floors);
  results.push({
    name,
    value: median(samples),
    unit,
    floor: median(floors),
    ratio: median(ratios),
    target,
    interval: medianInterval(ratios),
    pairs: ratios.length,
    open: holds(ratios, target),
  });
};
/** A ratio that is itself the median of paired ratios (a tax: the same bundle loaded two ways). */
const recordRatios = (name: string, ratios: number[], target: number) => {
  const ratio = median(ratios);
  results.push({
    name,
    value: ratio,
    unit: 'x',
    floor: 1,
    ratio,
    target,
    interval: medianInterval(ratios),
    pairs: ratios.length,
    open: holds(ratios, target),
  });
};
/** A figure shown for reference, with no target. */
const info = (name: string, value: number, unit: string, floor: number) =>
  record(name, value, unit, floor, Number.POSITIVE_INFINITY);

const started = Date.now();
let stageName = '';
let stageStarted = started;
const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
/**
 * One line on stderr as each stage starts, with the seconds so far and those the previous stage took
 * (the last one's with the table): a run takes minutes, and these lines say where they went.
 */
const stage = (name: string) => {
  const now = Date.now();
  const took = stageName ? ` (${stageName}: ${seconds(now - stageStarted)})` : '';
  console.error(`[${seconds(now - started)}] ${name}${took}`);
  stageName = name;
  stageStarted = now;
};

/** Runs a script in a Node process of its own: a bundle as it is, a TypeScript source through tsx. */
const runChild = (script: string, args: string[]) => {
  const runner = script.endsWith('.ts') ? [require.resolve('tsx/cli')] : [];
  const child = spawnSync(process.execPath, [...runner, script, ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`${script} failed`);
};

/** One round of the authorizer's end to end: each side's milliseconds, the i-th of each taken in one turn. */
type Round = Record<'authorizer' | 'floor' | 'raw', number[]>;
interface EndToEnd {
  rounds: Round[];
  connections: Record<'authorizer' | 'floor' | 'raw', number>;
  calls: number;
  /** A warm read of one secret and its floor (one BatchGetItem, the event's PutItem, no KMS call). */
  secretRounds: Record<'read' | 'floor', number[]>[];
}

/** The authorizer's end-to-end rows: its p50 against its floor's, its tail, its connections. */
const authorizerEndToEnd = (
  e2e: EndToEnd,
  all: (side: keyof Round) => number[],
  overRounds: (figure: (round: Round) => number) => number,
) => {
  const authP50 = overRounds((round) => median(round.authorizer));
  const tail = (side: keyof Round) => overRounds((round) => quantile(round[side], 0.99) / median(round[side]));
  recordPaired('end to end: authorizer p50', all('authorizer'), all('floor'), 'ms', 1.2);

  // The tail is the authorizer's own: its p99 held to 3 times its p50. Where the floor's p99 in the
  // same rounds (the same libraries doing the same I/O on this machine now) is already longer than
  // that, no code could be judged against 3, and the authorizer's p99 is held instead to 1.10 of the
  // floor's, as its cold load is to its floor's.
  const p99 = (side: keyof Round) => overRounds((round) => quantile(round[side], 0.99));
  record(
    'end to end: authorizer p99 / p50',
    p99('authorizer'),
    'ms',
    authP50,
    Math.max(3, Number(((1.1 * p99('floor')) / authP50).toFixed(3))),
  );
  info('end to end: floor p99 / p50 (the libraries and the machine, for the tail above)', tail('floor'), 'x', 1);
  info('end to end: raw GetItem p99 / p50 (DynamoDB Local tail, for reference)', tail('raw'), 'x', 1);
  recordPaired(
    'end to end: authorizer p50 against a raw GetItem (for reference)',
    all('authorizer'),
    all('raw'),
    'ms',
    Number.POSITIVE_INFINITY,
  );
  record(`end to end: TCP connections for ${e2e.calls} authorizer calls`, e2e.connections.authorizer, 'conn', 1, 1);
};

/**
 * End to end, work per request and cost, against a DynamoDB Local of their own: for the functions
 * selected, with the warm CPU measured before (a route's cost prices its and the authorizer's CPU).
 */
const againstDynamoDb = async (
  dir: string,
  built: readonly Bundle[],
  selected: ReadonlySet<string>,
  warm: Readonly<Record<string, Measured>>,
) => {
  stage('end to end, against DynamoDB Local');
  Object.assign(process.env, BUNDLE_ENV);
  const dynamo = await startDynamoDbLocal();
  try {
    await createTable(dynamo.endpoint, 'bench');
    const e2eFile = path.join(dir, 'e2e.json');
    const floorFile = (name: string) => built.find((bundle) => bundle.name === name)?.floor.file ?? '';
    runChild(await buildScript('bench/end-to-end.ts', path.join(dir, 'end-to-end')), [
      dynamo.endpoint,
      'bench',
      e2eFile,
      floorFile('authorizer'),
      floorFile('get-secret'),
      [selected.has('authorizer') ? 'authorizer' : 'raw', ...(selected.has('get-secret') ? ['get-secret'] : [])].join(
        ',',
      ),
    ]);
    const e2e = JSON.parse(readFileSync(e2eFile, 'utf8')) as EndToEnd;
    // Each figure is the median over the rounds of that round's figure; a p50 ratio is the median of
    // the ratios of the calls made one beside the other.
    const overRounds = (figure: (round: Round) => number) => median(e2e.rounds.map(figure));
    const all = (side: keyof Round) => e2e.rounds.flatMap((round) => round[side]);
    const rawP50 = overRounds((round) => median(round.raw));
    if (selected.has('authorizer')) authorizerEndToEnd(e2e, all, overRounds);
    if (selected.has('get-secret')) {
      const secretReads = (side: 'read' | 'floor') => e2e.secretRounds.flatMap((round) => round[side]);
      recordPaired(
        'end to end: get-secret p50, a warm read of one secret',
        secretReads('read'),
        secretReads('floor'),
        'ms',
        1.2,
      );
    }

    stage('work per request, against DynamoDB Local, and cost');
    const work = await measureWorkAgainst(dynamo.endpoint, 'bench-work');
    const measured = (name: string) => selected.has(name === 'authorizer, session' ? 'authorizer' : name);
    for (const row of work.filter((entry) => measured(entry.name))) {
      record(`work: ${row.name} DynamoDB calls`, row.calls, 'calls', row.minCalls, 1);
      record(`work: ${row.name} capacity`, row.capacity, 'units', row.minCapacity, 1);
    }

    // 7: cost per million requests, at 256 MB (deployed) and 128 MB, against API Gateway plus one
    // Lambda request and the capacity the route's access pattern needs (authorizer's read included),
    // with the KMS requests the route made warm (none: a warm function keeps a data key five minutes,
    // as the floor assumes).
    const tokenAuthorizerWork = work.find((entry) => entry.name === 'authorizer');
    for (const row of work.filter((entry) => entry.name !== 'authorizer' && measured(entry.name))) {
      const routeWarm = warm[row.name];
      if (!routeWarm) continue;
      // A sign-in has no authorizer (API Gateway runs none before it): no second function, read or write.
      const signIn = routes.find((route) => route.handler === row.name)?.signIn === true;
      const authorizerWork = signIn ? undefined : tokenAuthorizerWork;
      const kmsPerTenThousand = (routeWarm.kmsCalls / routeWarm.samples.length) * 10_000;
      const floor = routeFloorPerMillion({
        readUnits: row.minReadUnits + (authorizerWork?.minReadUnits ?? 0),
        writeUnits: row.minWriteUnits + (authorizerWork?.minWriteUnits ?? 0),
      });
      for (const memoryMb of [256, 128]) {
        const dollars = costPerMillion({
          memoryMb,
          authorizer: signIn
            ? undefined
            : { cpuMs: median(warm.authorizer?.samples ?? []), ioMs: rawP50 * (authorizerWork?.calls ?? 1) },
          route: { cpuMs: median(routeWarm.samples), ioMs: rawP50 * row.calls },
          readUnits: row.readUnits + (authorizerWork?.readUnits ?? 0),
          writeUnits: row.writeUnits + (authorizerWork?.writeUnits ?? 0),
          kmsPerTenThousand,
        });
        record(`cost @${memoryMb} MB: ${row.name}`, dollars, '$/M', floor, 1.12);
        if (memoryMb === 256) {
          info(
            `cost @256 MB: ${row.name} against API Gateway + one Lambda request alone`,
            dollars,
            '$/M',
            FLOOR_DOLLARS_PER_MILLION,
          );
        }
      }
      if (routes.find((route) => route.handler === row.name)?.keyUse) {
        info(`cost: ${row.name} KMS requests per 10,000 requests, warm`, kmsPerTenThousand, 'req', 0);
      }
    }
    info('cost: the secrets’ KMS key, whatever the traffic', KMS_KEY_DOLLARS_PER_MONTH, '$/month', 1);
  } finally {
    await dynamo.stop();
  }
};

/**
 * The functions to measure: those named on the command line (`npm run bench -- get-secret authorizer`),
 * or every one. A name that is no function's stops the run before anything is built.
 */
const selectFunctions = (asked: readonly string[]): Set<string> => {
  const valid = functionEntries().map(([name]) => name);
  const unknown = asked.filter((name) => !valid.includes(name));
  if (unknown.length > 0) {
    console.error(`npm run bench: no function named ${unknown.join(', ')}. The functions are: ${valid.join(', ')}`);
    process.exit(2);
  }
  return new Set(asked.length > 0 ? asked : valid);
};

const main = async () => {
  const selected = selectFunctions(process.argv.slice(2));
  const everything = selected.size === functionEntries().length;
  // The authorizer's rules, for every process the bench starts (bench/fixtures.ts says why here).
  process.env.ROUTE_RULES = routeRulesJson();
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-'));
  if (!everything) console.error(`measuring ${[...selected].join(', ')} only`);
  try {
    stage('bundling every function and its floor');
    // 1-3: bundles, built as the stack builds them, each with its floor (the same libraries and nothing
    // else, bundled the same way); cold load as deployed, without a source map, and with
    // --enable-source-maps.
    // A route's cost prices the authorizer's warm CPU beside its own: a subset of routes measures the
    // authorizer's warm CPU too (for that price alone), so it needs the authorizer's floor.
    const warmNames = ['authorizer', ...routes.map((route) => route.handler)].filter((name) => selected.has(name));
    const priceOnly = warmNames.length > 0 && !selected.has('authorizer') ? ['authorizer'] : [];
    const built = await buildBundles(path.join(dir, 'bundles'), new Set([...selected, ...priceOnly]));
    const functions = built.filter((bundle) => selected.has(bundle.name));
    // Cold load runs as deployed: the bundle with its map beside it, and the stack's NODE_OPTIONS; its
    // floor likewise, in the same round. The source-map tax compares that with the bundle built
    // without a map and loaded with no options, and shows what --enable-source-maps would cost.
    // Verdicts are on CPU time, which another process on the machine barely moves; the wall clock,
    // which it does, is shown beside them.
    const deployedArgs = runtimeNodeOptions.split(' ').filter(Boolean);
    const variants = {
      deployed: (bundle: Bundle) => ({ file: bundle.file, args: deployedArgs }),
      floor: (bundle: Bundle) => ({ file: bundle.floor.file, args: deployedArgs }),
      unmapped: (bundle: Bundle) => ({ file: bundle.unmappedFile, args: [] }),
      mapped: (bundle: Bundle) => ({ file: bundle.file, args: ['--enable-source-maps'] }),
    };
    type Variant = keyof typeof variants;
    const loads = (samples: LoadSamples, name: string) => samples.get(name) ?? [];
    const empty = () => new Map(functions.map((bundle) => [bundle.name, [] as number[]]));
    const cpu: Record<Variant, LoadSamples> = { deployed: empty(), floor: empty(), unmapped: empty(), mapped: empty() };
    const wall: Record<Variant, LoadSamples> = {
      deployed: empty(),
      floor: empty(),
      unmapped: empty(),
      mapped: empty(),
    };
    const coldRatios = (bundle: Bundle) =>
      pairedRatios(loads(cpu.deployed, bundle.name), loads(cpu.floor, bundle.name));
    // A setting's tax is the same for every bundle, so it is the median over every bundle and round of
    // the two loads of a round: paired, a noisy moment cancels out, and pooled, no bundle's noise
    // decides alone.
    const tax = (samples: LoadSamples) =>
      functions.flatMap((bundle) => pairedRatios(loads(samples, bundle.name), loads(cpu.unmapped, bundle.name)));
    // Sequential (bench/sampling.ts): every function's first COLD.min rounds, then more rounds, a batch
    // at a time, of the functions whose interval still holds the target (within the margin), until none
    // does or a function has had COLD.max. The source-map tax is loaded in the first round of each
    // function (pooled, one pair per function is plenty: its ratio stays near 1), and in every round of
    // a later batch while its own pooled interval is open.
    for (let batch = 0; ; batch += 1) {
      const open = functions.filter((bundle) => needsMore(coldRatios(bundle), COLD));
      const taxOpen = needsMore(tax(cpu.deployed), SOURCE_MAP_TAX) && functions.length > 0;
      if (open.length === 0 && !taxOpen) break;
      const rounds = batch === 0 ? COLD.min : COLD.batch;
      // The tax alone still open: another batch of every function, for its rounds.
      const measured = open.length > 0 ? open : functions;
      if (measured.every((bundle) => loads(cpu.deployed, bundle.name).length >= COLD.max)) break;
      stage(
        batch === 0
          ? `cold load: ${rounds} rounds of ${functions.length} function(s)`
          : `cold load: ${rounds} more rounds of ${measured.map((bundle) => bundle.name).join(', ')}${taxOpen ? ' (and the source-map tax)' : ''}`,
      );
      type Taken = Partial<Record<Variant, LoadSamples>>;
      const more: { cpu: Taken; wall: Taken } = taxOpen
        ? await measureColdLoad(measured, rounds, variants, batch === 0 ? { unmapped: rounds, mapped: rounds } : {})
        : await measureColdLoad(measured, rounds, { deployed: variants.deployed, floor: variants.floor });
      for (const bundle of measured) {
        for (const variant of Object.keys(variants) as Variant[]) {
          for (const [all, batchSamples] of [
            [cpu, more.cpu],
            [wall, more.wall],
          ] as const) {
            // A variant left out of a batch stays aligned by round with NaN (no pair).
            const taken = batchSamples[variant]?.get(bundle.name);
            loads(all[variant], bundle.name).push(...(taken ?? Array.from({ length: rounds }, () => Number.NaN)));
          }
        }
      }
    }
    for (const bundle of functions) {
      recordPaired(
        `cold load (CPU): ${bundle.name}`,
        loads(cpu.deployed, bundle.name),
        loads(cpu.floor, bundle.name),
        'ms',
        COLD.target,
      );
    }
    for (const bundle of functions) {
      recordPaired(
        `cold load (wall clock): ${bundle.name}`,
        loads(wall.deployed, bundle.name),
        loads(wall.floor, bundle.name),
        'ms',
        Number.POSITIVE_INFINITY,
      );
    }
    for (const bundle of functions) {
      record(`bundle size: ${bundle.name}`, bundle.bytes / 1024, 'KiB', bundle.floor.bytes / 1024, 1.15);
    }
    recordRatios(
      `source-map tax as deployed (map beside the bundle, NODE_OPTIONS "${runtimeNodeOptions}")`,
      tax(cpu.deployed),
      SOURCE_MAP_TAX.target,
    );
    recordRatios('source-map tax if --enable-source-maps were on', tax(cpu.mapped), Number.POSITIVE_INFINITY);

    stage('warm CPU');
    // 4: warm CPU on an in-memory transport, each function against its floor bundle doing its I/O.
    const warmFile = path.join(dir, 'warm.json');
    const floorsFile = path.join(dir, 'floors.json');
    writeFileSync(
      floorsFile,
      JSON.stringify(Object.fromEntries(built.map((bundle) => [bundle.name, bundle.floor.file]))),
    );
    const warmScript = await buildScript('bench/warm-cpu.ts', path.join(dir, 'warm-cpu'));
    const warm: Record<string, Measured> = {};
    const references: Record<string, Measured> = {};
    // One function at a time: two processes at once on two cores (each pair still taken in one process)
    // moved verdicts from run to run (docs/performance.md, "The bench on two cores").
    for (const name of [...priceOnly, ...warmNames]) {
      runChild(warmScript, [warmFile, floorsFile, name]);
      const measured = JSON.parse(readFileSync(warmFile, 'utf8')) as Record<'results' | 'references', typeof warm>;
      Object.assign(warm, measured.results);
      Object.assign(references, measured.references);
    }
    const µs = (ms: number[]) => ms.map((value) => value * 1000);
    for (const [name, sample] of Object.entries(warm)) {
      if (!selected.has(name)) continue;
      recordPaired(`warm CPU p50: ${name}`, µs(sample.samples), µs(sample.floor), 'µs', 1.05);
    }
    for (const [name, sample] of Object.entries(references)) {
      recordPaired(`warm CPU p50: ${name}`, µs(sample.samples), µs(sample.floor), 'µs', Number.POSITIVE_INFINITY);
    }

    // 5, 6 and 7 against DynamoDB Local: the authorizer and the routes; the event functions have none.
    if (warmNames.length > 0) await againstDynamoDb(dir, built, selected, warm);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  stage('done');
  const misses = results.filter((result) => result.ratio > result.target);
  const rows = results.map((result) => [
    result.ratio > result.target ? 'MISS' : 'ok',
    result.name,
    `${result.value.toFixed(3)} ${result.unit}`,
    `${result.floor.toFixed(3)} ${result.unit}`,
    result.ratio.toFixed(3),
    result.interval
      ? `${result.interval.map((bound) => bound.toFixed(3)).join('–')} n=${result.pairs}${result.open ? ' open' : ''}`
      : '',
    Number.isFinite(result.target) ? `≤ ${result.target}` : '(info)',
  ]);
  const widths = [4, 72, 16, 16, 7, 25, 7];
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i] ?? 10)).join('  ');
  console.log(line(['', 'measure', 'value', 'floor', 'ratio', '95 % CI', 'target']));
  for (const row of rows) console.log(line(row));
  writeFileSync(
    path.join(__dirname, 'results.json'),
    `${JSON.stringify(
      results.map((result) => ({ ...result, target: Number.isFinite(result.target) ? result.target : null })),
      null,
      2,
    )}\n`,
  );
  const open = results.filter((result) => result.open).length;
  console.log(
    `\n${results.length} measures, ${misses.length} missing their target, ${open} with an interval that holds its target, in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  process.exit(misses.length > 0 ? 1 : 0);
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
