import { isShareLinkPath, localDashboard } from '../../../local/dashboard-site';

describe('the local dashboard', () => {
  const serve = localDashboard({ issuer: 'http://127.0.0.1:3000/_dev/idp', clientId: 'local-dashboard' });

  it('answers a share’s link page, /s/<id>, with the dashboard’s page and its headers', () => {
    const home = serve('GET', '/', 'http://127.0.0.1:3000');
    const link = serve('GET', '/s/shr_0123456789abcdefghijkl', 'http://127.0.0.1:3000');
    expect(link).toEqual(home);
    expect(link?.body).toContain('src="/app.js"');
    expect(link?.headers?.['Content-Type']).toBe('text/html; charset=utf-8');
    expect(link?.headers?.['Content-Security-Policy']).toContain("script-src 'self'");
  });

  it('leaves any other path under /s/ to the API, which answers 404', () => {
    expect(serve('GET', '/s/', 'http://127.0.0.1:3000')).toBeUndefined();
    expect(serve('GET', '/s/shr_x/more', 'http://127.0.0.1:3000')).toBeUndefined();
    expect(serve('POST', '/s/shr_x', 'http://127.0.0.1:3000')).toBeUndefined();
  });
});

describe('isShareLinkPath', () => {
  it('is a path of one segment under /s/', () => {
    expect(isShareLinkPath('/s/shr_abc')).toBe(true);
    expect(isShareLinkPath('/s/')).toBe(false);
    expect(isShareLinkPath('/s/a/b')).toBe(false);
    expect(isShareLinkPath('/share')).toBe(false);
  });
});
