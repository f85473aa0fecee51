import {
  dashboardContentSecurityPolicy,
  dashboardContentSecurityPolicyOfOrigins,
  dashboardSecurityHeaders,
} from '@contract/dashboard';

const directives = (policy: string): Map<string, string> =>
  new Map(policy.split('; ').map((directive) => [directive.split(' ')[0] ?? '', directive]));

describe('the dashboard Content-Security-Policy', () => {
  it('lets the page connect to its own origin and the origins of the URLs given, once each', () => {
    const policy = dashboardContentSecurityPolicy([
      'https://abc.execute-api.eu-west-1.amazonaws.com/prod/',
      'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_X',
      'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Y',
    ]);
    expect(directives(policy).get('connect-src')).toBe(
      "connect-src 'self' https://abc.execute-api.eu-west-1.amazonaws.com https://cognito-idp.eu-west-1.amazonaws.com",
    );
  });

  it('is the policy of the origins, whether given as URLs or as origins', () => {
    const origins = ['https://api.example.com', 'https://idp.example.com'];
    expect(dashboardContentSecurityPolicy(origins.map((origin) => `${origin}/some/path?x=1`))).toBe(
      dashboardContentSecurityPolicyOfOrigins(origins),
    );
  });

  it('loads scripts and styles from the page origin only and is never framed', () => {
    const policy = directives(dashboardContentSecurityPolicyOfOrigins(['https://api.example.com']));
    expect(policy.get('default-src')).toBe("default-src 'none'");
    expect(policy.get('script-src')).toBe("script-src 'self'");
    expect(policy.get('style-src')).toBe("style-src 'self'");
    expect(policy.get('frame-ancestors')).toBe("frame-ancestors 'none'");
  });
});

describe('the dashboard security headers', () => {
  it('keep browsers on HTTPS for a year, stop sniffing and framing, and send no referrer', () => {
    expect(dashboardSecurityHeaders).toEqual({
      'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
    });
  });
});
