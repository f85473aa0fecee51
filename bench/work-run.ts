/**
 * Work per request for `bench/run.ts`: runs `measure/work.ts` in a process of its own (handler modules
 * read their environment once per process) against the DynamoDB Local given, and returns one row for
 * the authorizer (an API token in steady state: lastUsedAt is written at most once a minute), one for
 * the authorizer of a session in steady state (its user's mark and address claim read), and one per
 * route (with an API token where allowed, else a session), each with the floor of `measure/work-floors.ts`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Measurement, WorkReport } from '../measure/work';
import { floorFor, floorTotals } from '../measure/work-floors';

/** One row: measured calls and units against the floor. */
export interface WorkRow {
  /** `authorizer` or a route's handler name. */
  readonly name: string;
  readonly calls: number;
  readonly minCalls: number;
  /** Read plus write units. */
  readonly capacity: number;
  readonly minCapacity: number;
  readonly readUnits: number;
  readonly writeUnits: number;
  /** The least read and write units its access pattern needs. */
  readonly minReadUnits: number;
  readonly minWriteUnits: number;
}

const row = (name: string, m: Measurement): WorkRow => {
  const floor = floorTotals(floorFor(m.subject));
  return {
    name,
    calls: m.work.calls.length,
    minCalls: floor.calls,
    capacity: m.work.totalRead + m.work.totalWrite,
    minCapacity: floor.read + floor.write,
    readUnits: m.work.totalRead,
    writeUnits: m.work.totalWrite,
    minReadUnits: floor.read,
    minWriteUnits: floor.write,
  };
};

/** Measures against `endpoint` (the table is created if missing); throws if the measurement fails. */
export const measureWorkAgainst = async (endpoint: string, tableName: string): Promise<WorkRow[]> => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-work-'));
  try {
    const out = path.join(dir, 'work.json');
    const child = spawnSync(
      process.execPath,
      [require.resolve('tsx/cli'), 'measure/work.ts', out, '--endpoint', endpoint, '--table', tableName],
      // Its secret routes wrap data keys with a local key: bench/run.ts names a KMS key (SECRETS_KEY_ID)
      // for the bundles it measures in memory, which no KMS here would answer.
      { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, SECRETS_KEY_ID: '' } },
    );
    // Exit code 1 means a request spent more than its floor: the rows show it.
    if (child.status !== 0 && child.status !== 1) throw new Error('measure/work.ts failed');
    const { report } = JSON.parse(readFileSync(out, 'utf8')) as { report: WorkReport };
    const steady = report.authorizer.find((m) => m.subject === 'authorizer/token' && m.status === 200);
    if (!steady) throw new Error('measure/work.ts measured no steady-state token authorization');
    const session = report.authorizer.find((m) => m.subject === 'authorizer/session' && m.status === 200);
    if (!session) throw new Error('measure/work.ts measured no steady-state session authorization');
    const routes = new Map<string, Measurement>();
    for (const m of report.routes) if (!routes.has(m.subject) || m.credential === 'token') routes.set(m.subject, m);
    return [
      row('authorizer', steady),
      row('authorizer, session', session),
      ...[...routes].map(([name, m]) => row(name, m)),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
