import { MAX_WEBHOOK_URL_LENGTH } from '@contract/limits';
import {
  checkWebhookUrl,
  isLoopbackAddress,
  isPublicAddress,
  parseWebhookUrl,
  type ResolveHost,
} from '@lambdas/domain/webhook-url';

const deployed = { allowLoopback: false };
const local = { allowLoopback: true };
const resolvesTo =
  (...addresses: string[]): ResolveHost =>
  async () =>
    addresses;

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '203.0.114.1', '2001:4860:4860::8888', '::ffff:8.8.8.8', '::ffff:808:808'])(
    'accepts %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it.each([
    ['loopback', '127.0.0.1'],
    ['loopback elsewhere in 127/8', '127.1.2.3'],
    ['IPv6 loopback', '::1'],
    ['RFC 1918 10/8', '10.0.0.1'],
    ['RFC 1918 172.16/12', '172.31.255.255'],
    ['RFC 1918 192.168/16', '192.168.1.1'],
    ['link-local', '169.254.1.1'],
    ['the instance metadata endpoint', '169.254.169.254'],
    ['the container credentials endpoint', '169.254.170.2'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv6 unique local', 'fd00:ec2::254'],
    ['fc00::/7 low half', 'fc00::1'],
    ['unspecified', '0.0.0.0'],
    ['IPv6 unspecified', '::'],
    ['multicast', '224.0.0.1'],
    ['IPv6 multicast', 'ff02::1'],
    ['broadcast', '255.255.255.255'],
    ['carrier-grade NAT', '100.64.0.1'],
    ['carrier-grade NAT upper end', '100.127.255.254'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped private', '::ffff:10.1.2.3'],
    ['IPv4-mapped private in hex groups', '::ffff:a01:203'],
    ['IPv4-mapped metadata', '::ffff:169.254.169.254'],
    ['NAT64 of a private address', '64:ff9b::a00:1'],
    ['not an address', 'example.com'],
  ])('refuses %s (%s)', (_, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe('isLoopbackAddress', () => {
  it.each(['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1'])('takes %s for loopback', (address) => {
    expect(isLoopbackAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '10.0.0.1', 'localhost', ''])('does not take %s for loopback', (address) => {
    expect(isLoopbackAddress(address)).toBe(false);
  });
});

describe('parseWebhookUrl', () => {
  it('accepts an https URL', () => {
    expect(parseWebhookUrl('https://hooks.example.com/in?x=1', deployed)).toMatchObject({ ok: true });
  });

  it.each([
    ['http', 'http://hooks.example.com/in'],
    ['ftp', 'ftp://hooks.example.com/in'],
    ['a relative URL', '/in'],
    ['credentials in the URL', 'https://user:pw@hooks.example.com/in'],
    ['http to loopback without the local switch', 'http://127.0.0.1:8080/in'],
    ['a URL too long', `https://hooks.example.com/${'a'.repeat(500)}`],
  ])('refuses %s', (_, url) => {
    expect(parseWebhookUrl(url, deployed)).toMatchObject({ ok: false });
  });

  it('says why it refuses a URL, in words the caller can act on', () => {
    const longest = `https://hooks.example.com/${'a'.repeat(MAX_WEBHOOK_URL_LENGTH - 26)}`;
    expect(parseWebhookUrl(longest, deployed)).toMatchObject({ ok: true });
    expect(parseWebhookUrl(`${longest}a`, deployed)).toEqual({
      ok: false,
      reason: `Use at most ${MAX_WEBHOOK_URL_LENGTH} characters`,
    });
    expect(parseWebhookUrl('/in', deployed)).toEqual({ ok: false, reason: 'Give an absolute https URL' });
    for (const url of ['https://user@hooks.example.com/in', 'https://:pw@hooks.example.com/in']) {
      expect(parseWebhookUrl(url, deployed)).toEqual({ ok: false, reason: 'Give a URL without a user or password' });
    }
    expect(parseWebhookUrl('http://hooks.example.com/in', deployed)).toEqual({ ok: false, reason: 'Use an https URL' });
    expect(parseWebhookUrl('ftp://127.0.0.1/in', local)).toEqual({ ok: false, reason: 'Use an https URL' });
  });

  it('accepts http to a loopback address only when loopback is allowed', () => {
    expect(parseWebhookUrl('http://127.0.0.1:8080/in', local)).toMatchObject({ ok: true });
    expect(parseWebhookUrl('http://[::1]:8080/in', local)).toMatchObject({ ok: true });
    expect(parseWebhookUrl('http://hooks.example.com/in', local)).toMatchObject({ ok: false });
    expect(parseWebhookUrl('http://10.0.0.1/in', local)).toMatchObject({ ok: false });
  });
});

describe('checkWebhookUrl', () => {
  it('answers the first address a public host resolves to, to connect to', async () => {
    const target = await checkWebhookUrl('https://hooks.example.com/in', deployed, resolvesTo('8.8.8.8', '8.8.4.4'));
    expect(target).toMatchObject({ ok: true, address: '8.8.8.8' });
  });

  it('refuses a host any of whose addresses is not public', async () => {
    const target = await checkWebhookUrl(
      'https://hooks.example.com/in',
      deployed,
      resolvesTo('8.8.8.8', '169.254.169.254'),
    );
    expect(target).toEqual({
      ok: false,
      reason: 'The host hooks.example.com resolves to 169.254.169.254, which is not a public address',
    });
  });

  it('refuses an address literal that is not public without a lookup', async () => {
    const resolve = jest.fn(resolvesTo('8.8.8.8'));
    expect(await checkWebhookUrl('https://10.0.0.8/in', deployed, resolve)).toMatchObject({ ok: false });
    expect(await checkWebhookUrl('https://[::ffff:127.0.0.1]/in', deployed, resolve)).toMatchObject({ ok: false });
    expect(resolve).not.toHaveBeenCalled();
  });

  it('refuses a URL of the wrong form before any lookup', async () => {
    const resolve = jest.fn(resolvesTo('8.8.8.8'));
    expect(await checkWebhookUrl('http://hooks.example.com/in', deployed, resolve)).toEqual({
      ok: false,
      reason: 'Use an https URL',
    });
    expect(resolve).not.toHaveBeenCalled();
  });

  it('refuses a host that does not resolve', async () => {
    const failing: ResolveHost = async () => {
      throw new Error('ENOTFOUND');
    };
    expect(await checkWebhookUrl('https://nowhere.example/in', deployed, failing)).toEqual({
      ok: false,
      reason: 'The host nowhere.example does not resolve',
    });
    expect(await checkWebhookUrl('https://nowhere.example/in', deployed, resolvesTo())).toEqual({
      ok: false,
      reason: 'The host nowhere.example does not resolve',
    });
  });

  it('accepts a loopback receiver only when loopback is allowed', async () => {
    expect(await checkWebhookUrl('http://127.0.0.1:9000/in', local, resolvesTo())).toMatchObject({
      ok: true,
      address: '127.0.0.1',
    });
    expect(await checkWebhookUrl('https://localhost/in', deployed, resolvesTo('127.0.0.1'))).toMatchObject({
      ok: false,
    });
  });
});
