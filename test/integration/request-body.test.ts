import { ErrorText } from '@contract/errors';
import { MAX_BODY_BYTES } from '@contract/limits';
import { hasBody } from '@contract/route-table';
import { routes } from '@contract/routes';
import type { LocalService } from '../../local/service';
import { call, samplePath, sessionFor, startService, uniqueEmail } from './harness';

let service: LocalService;
let session: string;
beforeAll(async () => {
  service = await startService();
  session = await sessionFor(service, uniqueEmail());
});
afterAll(async () => {
  await service.close();
});

describe.each(routes.filter(hasBody).map((route) => [`${route.method} ${route.path}`, route] as const))(
  '%s body handling',
  (_name, route) => {
    const path = samplePath(route.path);

    it('answers 400 Malformed JSON body', async () => {
      for (const rawBody of ['{"name":', '', 'not json']) {
        const reply = await call(service, route.method, path, {
          token: session,
          rawBody,
          headers: [['Content-Type', 'application/json']],
        });
        expect(reply.status).toBe(400);
        expect(reply.body).toEqual({ success: false, error: ErrorText.malformedJson });
      }
    });

    it('answers 400 Validation failed for JSON that is not an object', async () => {
      for (const json of [[], 'text', 42, null]) {
        const reply = await call(service, route.method, path, { token: session, json });
        expect(reply.status).toBe(400);
        expect(reply.body.error).toBe(ErrorText.validation);
        expect(Array.isArray(reply.body.details)).toBe(true);
      }
    });

    it('answers 415 without a JSON content type', async () => {
      for (const headers of [[], [['Content-Type', 'text/plain']], [['Content-Type', 'application/xml']]] as [
        string,
        string,
      ][][]) {
        const reply = await call(service, route.method, path, { token: session, rawBody: '{}', headers });
        expect(reply.status).toBe(415);
        expect(reply.body).toEqual({ success: false, error: ErrorText.contentType });
      }
    });

    it('accepts a JSON content type with a charset', async () => {
      const reply = await call(service, route.method, path, {
        token: session,
        rawBody: '{}',
        headers: [['Content-Type', 'application/json; charset=utf-8']],
      });
      expect(reply.status).not.toBe(415);
    });

    const limit = route.maxBodyBytes ?? MAX_BODY_BYTES;
    it(`answers 413 Request body too large over its ${limit / 1024} KiB, and takes a body of that size`, async () => {
      const fits = await call(service, route.method, path, {
        token: session,
        rawBody: JSON.stringify({ name: 'x'.repeat(limit - 11) }),
        headers: [['Content-Type', 'application/json']],
      });
      expect(fits.status).not.toBe(413);
      const rawBody = JSON.stringify({ name: 'x'.repeat(limit) });
      const reply = await call(service, route.method, path, {
        token: session,
        rawBody,
        headers: [['Content-Type', 'application/json']],
      });
      expect(reply.status).toBe(413);
      expect(reply.body).toEqual({ success: false, error: ErrorText.tooLarge });
    });
  },
);

describe('authentication comes before the body', () => {
  it('answers 401, not 400, to a malformed body without a credential', async () => {
    const reply = await call(service, 'POST', '/api/v1/tokens', {
      rawBody: '{',
      headers: [['Content-Type', 'application/json']],
    });
    expect(reply.status).toBe(401);
  });
});
