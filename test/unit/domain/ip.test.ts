import { canonicalIp, sameIp } from '@lambdas/domain/ip';

describe('canonicalIp', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:203.0.113.7', '203.0.113.7'],
    ['0:0:0:0:0:ffff:cb00:7107', '203.0.113.7'],
    ['2001:db8::1', '2001:0db8:0000:0000:0000:0000:0000:0001'],
    ['2001:DB8:0:0:0:0:0:1', '2001:0db8:0000:0000:0000:0000:0000:0001'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:0db8:0000:0000:0000:0000:0000:0001'],
    ['::1', '0000:0000:0000:0000:0000:0000:0000:0001'],
    ['fe80::1%eth0', 'fe80:0000:0000:0000:0000:0000:0000:0001'],
  ])('writes %s as %s', (input, expected) => {
    expect(canonicalIp(input)).toBe(expected);
  });

  it.each([
    '',
    'localhost',
    '256.1.1.1',
    '1.2.3',
    '2001:db8::1::2',
    '12345::',
    'not an ip',
    // Text that a lenient hex parse would read as a group: never an address.
    '01234::',
    '1x::',
    '+1::',
  ])('rejects %s', (input) => {
    expect(canonicalIp(input)).toBeNull();
  });
});

describe('sameIp', () => {
  it('matches one address in its different spellings', () => {
    expect(sameIp('127.0.0.1', '::ffff:127.0.0.1')).toBe(true);
    expect(sameIp('2001:db8::1', '2001:DB8:0000::0001')).toBe(true);
  });

  it('tells different addresses apart', () => {
    expect(sameIp('127.0.0.1', '127.0.0.2')).toBe(false);
    expect(sameIp('127.0.0.2', '127.0.0.1')).toBe(false);
    expect(sameIp('::1', '127.0.0.1')).toBe(false);
    expect(sameIp('2001:db8::1', '2001:db8::2')).toBe(false);
  });

  it('compares IPv6 with ffff in the sixth group as IPv6 unless the five groups before are zero', () => {
    // Only ::ffff:0:0/96 is IPv4-mapped; 1:0:0:0:0:ffff:102:304 is another IPv6 address than 1.2.3.4.
    expect(sameIp('1:0:0:0:0:ffff:102:304', '1.2.3.4')).toBe(false);
    expect(sameIp('1.2.3.4', '1:0:0:0:0:ffff:102:304')).toBe(false);
    expect(sameIp('0:0:0:0:1:ffff:102:304', '1.2.3.4')).toBe(false);
    expect(canonicalIp('1:0:0:0:0:ffff:102:304')).toBe('0001:0000:0000:0000:0000:ffff:0102:0304');
    expect(sameIp('::ffff:102:304', '1.2.3.4')).toBe(true);
  });

  it('matches nothing when either side is not an address', () => {
    expect(sameIp('', '')).toBe(false);
    expect(sameIp('garbage', 'garbage')).toBe(false);
  });
});
