import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WRAPPING_KEY_FILE } from '../../local/data-dir';
import { call, devSession, uniqueEmail } from './harness';
import { type NpmService, startNpmService } from './npm-start';

/**
 * `npm start` with DATA_DIR keeps the local wrapping key (KMS's stand-in) in the folder, owner-only,
 * so the secrets written in one run decrypt in the next: black box, over HTTP, across a real restart
 * on the same folder and table.
 */

const TEST_MS = 300_000;

describe('npm start with DATA_DIR', () => {
  let dataDir: string;
  let service: NpmService | undefined;
  afterAll(async () => {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, TEST_MS);

  it(
    'reads a secret written before a restart, and keeps the wrapping key in DATA_DIR with mode 0600',
    async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'wrapping-key-'));
      const env = { DATA_DIR: dataDir, TABLE_NAME: `wrapping-key-${randomUUID().slice(0, 8)}` };
      const email = uniqueEmail('restart');
      const value = `postgres://${randomUUID()}`;

      service = await startNpmService(env);
      const session = await devSession(service, email);
      const project = await call(service, 'POST', '/api/v1/projects', { token: session, json: { name: 'Kept' } });
      expect(project.status).toBe(201);
      const projectId = project.body.data.projectId as string;
      const path = `/api/v1/projects/${projectId}/environments/development/secrets/DATABASE_URL`;
      const written = await call(service, 'PUT', path, { token: session, json: { value } });
      expect(written.status).toBe(201);
      await service.stop();

      service = await startNpmService(env);
      const read = await call(service, 'GET', path, { token: await devSession(service, email) });

      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ name: 'DATABASE_URL', value, version: 1 });
      const key = statSync(join(dataDir, WRAPPING_KEY_FILE));
      expect(key.isFile()).toBe(true);
      expect((key.mode & 0o777).toString(8)).toBe('600');
    },
    TEST_MS,
  );
});
