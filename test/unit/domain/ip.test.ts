import { BlockList } from 'node:net';
import {
  canonicalIp,
  creatingAddress,
  embeddedIpv4Prefix,
  type Network,
  networkHolds,
  networksOverlap,
  networkText,
  parseNetwork,
  sameIp,
} from '@lambdas/domain/ip';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';

describe('canonicalIp', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:203.0.113.7', '203.0.113.7'],
    ['0:0:0:0:0:ffff:cb00:7107', '203.0.113.7'],
    ['::ffff:cb00:7107', '203.0.113.7'],
    ['::ffff:0:0', '0.0.0.0'],
    ['2001:db8::1', '2001:db8::1'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['::1', '::1'],
    ['0000:0000:0000:0000:0000:0000:0000:0001', '::1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['1:0:0:0:0:ffff:102:304', '1::ffff:102:304'],
    ['1::ffff:1.2.3.4', '1::ffff:102:304'],
    ['::ffff:0:102:304', '::ffff:0:102:304'],
  ])('writes %s as %s', (input, expected) => {
    expect(canonicalIp(input)).toBe(expected);
  });

  it.each([
    '',
    'localhost',
    '256.1.1.1',
    '1.2.3',
    '01.2.3.4',
    '2001:db8::1::2',
    '12345::',
    'fe80::1%',
    'not an ip',
    '01234::',
    '1x::',
    '+1::',
  ])('rejects %s', (input) => {
    expect(canonicalIp(input)).toBeNull();
  });

  it('writes an IPv6 address as IPv4 exactly when it is in ::ffff:0:0/96, whatever its spelling', () => {
    const group = fc.oneof(fc.constant(0), fc.constant(0xffff), fc.integer({ min: 0, max: 0xffff }));
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), fc.boolean(), (groups, upper) => {
        const expanded = groups.map((value) => value.toString(16).padStart(4, '0')).join(':');
        const canonical = canonicalIp(upper ? expanded.toUpperCase() : expanded);
        const mapped = groups.slice(0, 5).every((value) => value === 0) && groups[5] === 0xffff;
        expect(canonical?.includes(':')).toBe(!mapped);
        expect(canonicalIp(canonical ?? '')).toBe(canonical);
        expect(sameIp(expanded, groups.map((value) => value.toString(16)).join(':'))).toBe(true);
      }),
    );
  });
});

describe('creatingAddress', () => {
  it('is the source address in canonical form, as a token without an allow-list is bound to it', () => {
    expect(creatingAddress('::FFFF:127.0.0.2')).toBe('127.0.0.2');
    expect(creatingAddress('0:0:0:0:0:0:0:1')).toBe('::1');
  });

  it.each([null, undefined, '', 'unknown'])('is null for a source address of %p', (sourceIp) => {
    expect(creatingAddress(sourceIp)).toBeNull();
  });
});

describe('sameIp', () => {
  it('matches one address in its different spellings', () => {
    expect(sameIp('127.0.0.1', '::ffff:127.0.0.1')).toBe(true);
    expect(sameIp('2001:db8::1', '2001:DB8:0000::0001')).toBe(true);
  });

  it('matches a bound IP stored fully expanded, as tokens minted before the compressed form hold it', () => {
    expect(sameIp('0000:0000:0000:0000:0000:0000:0000:0001', '::1')).toBe(true);
    expect(sameIp('2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1')).toBe(true);
    expect(sameIp('2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::2')).toBe(false);
  });

  it('tells different addresses apart', () => {
    expect(sameIp('127.0.0.1', '127.0.0.2')).toBe(false);
    expect(sameIp('127.0.0.2', '127.0.0.1')).toBe(false);
    expect(sameIp('::1', '127.0.0.1')).toBe(false);
    expect(sameIp('2001:db8::1', '2001:db8::2')).toBe(false);
  });

  it('keeps an address with ffff in its sixth group but other bits set apart from IPv4 (only ::ffff:0:0/96 is mapped)', () => {
    expect(canonicalIp('1:0:0:0:0:ffff:102:304')).not.toBe('1.2.3.4');
    expect(canonicalIp('1::ffff:1.2.3.4')).not.toBe('1.2.3.4');
    expect(sameIp('1.2.3.4', '1:0:0:0:0:ffff:102:304')).toBe(false);
    expect(sameIp('1:0:0:0:0:ffff:102:304', '1.2.3.4')).toBe(false);
    expect(sameIp('::ffff:1.2.3.4', '1::ffff:1.2.3.4')).toBe(false);
    expect(sameIp('0:0:0:0:1:ffff:102:304', '1.2.3.4')).toBe(false);
    expect(sameIp('::ffff:102:304', '1.2.3.4')).toBe(true);
  });

  it('matches nothing when either side is not an address', () => {
    expect(sameIp('', '')).toBe(false);
    expect(sameIp('garbage', 'garbage')).toBe(false);
  });
});

describe('networks (allow-lists)', () => {
  it('reads an IPv4-compatible address as such, never as IPv4-mapped (ipaddr.js alone would)', () => {
    expect(text('::1.2.3.4')).toBe('::1.2.3.4');
    expect(networkHolds(parseNetwork('::1.2.3.0/120') as Network, '::ffff:1.2.3.4')).toBe(false);
    expect(networkHolds(parseNetwork('::1.2.3.0/120') as Network, '::1.2.3.4')).toBe(true);
    expect(networksOverlap(parseNetwork('::1.2.3.4') as Network, parseNetwork('1.2.3.4') as Network)).toBe(false);
  });

  /** An entry as it is stored: its network in one form, or null. */
  const text = (entry: string) => {
    const network = parseNetwork(entry);
    return network && networkText(network);
  };
  const inNetwork = (family: 4 | 6) =>
    (family === 4 ? fc.ipV4() : fc.ipV6()).chain((base) =>
      fc.record({
        base: fc.constant(base),
        prefix: fc.integer({ min: 0, max: family === 4 ? 32 : 128 }),
        // Addresses near the base as often as anywhere: a random address is rarely inside a long prefix.
        address: fc.oneof(family === 4 ? fc.ipV4() : fc.ipV6(), fc.constant(base)),
      }),
    );

  it.each([4, 6] as const)('holds exactly the IPv%s addresses node:net BlockList holds', (family) => {
    fc.assert(
      fc.property(inNetwork(family), ({ base, prefix, address }) => {
        const blockList = new BlockList();
        blockList.addSubnet(base, prefix, family === 4 ? 'ipv4' : 'ipv6');
        const network = parseNetwork(`${base}/${prefix}`);
        expect(network).not.toBeNull();
        expect(networkHolds(network as Network, address)).toBe(
          blockList.check(address, family === 4 ? 'ipv4' : 'ipv6'),
        );
      }),
      { numRuns: 2_000 },
    );
  });

  it('writes a network in one form: host bits cleared, IPv6 compressed, mapped IPv4 as IPv4', () => {
    expect(text('10.1.2.3/8')).toBe('10.0.0.0/8');
    expect(text('2001:DB8:0:0::1/32')).toBe('2001:db8::/32');
    expect(text('::ffff:10.0.0.0/104')).toBe('10.0.0.0/8');
    expect(text('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(text('127.0.0.1/32')).toBe('127.0.0.1');
    expect(text('::1/128')).toBe('::1');
    for (const bad of ['1.2.3.4/33', '10.0.0.0/08', '10.0.0.0/', '::/129', '1.2.3.4/8/8', 'example.com', '']) {
      expect([bad, parseNetwork(bad)]).toEqual([bad, null]);
    }
  });

  it('holds an address of the network’s family only, and nothing that is not an address', () => {
    const net = (entry: string) => parseNetwork(entry) as Network;
    // ::a00:1 has the bits of 10.0.0.1 in its low 32: still an IPv6 address.
    expect(networkHolds(net('10.0.0.0/8'), '::a00:1')).toBe(false);
    expect(networkHolds(net('::/96'), '10.0.0.1')).toBe(false);
    expect(networkHolds(net('10.0.0.0/8'), 'ten.example')).toBe(false);
  });

  it('reads an IPv6 address with a dotted IPv4 tail, which node:net keeps in that form', () => {
    const network = parseNetwork('::1.2.3.0/120') as Network;
    expect(networkText(network)).toBe('::1.2.3.0/120');
    expect(networkHolds(network, '::1.2.3.4')).toBe(true);
    expect(networkHolds(network, '::1.2.4.4')).toBe(false);
  });

  it('reads a dotted tail whose middle numbers have two or three digits', () => {
    const network = parseNetwork('::10.22.133.0/120') as Network;
    expect(networkText(network)).toBe('::10.22.133.0/120');
    expect(networkHolds(network, '::10.22.133.250')).toBe(true);
    expect(networkHolds(network, '::ffff:10.22.133.250')).toBe(false);
    expect(text('::1.22.3.4')).toBe('::1.22.3.4');
    expect(text('::1.2.133.4')).toBe('::1.2.133.4');
  });

  it('ignores spaces around an entry and around its address, and keeps a mapped prefix shorter than the mapping IPv6', () => {
    expect(text(' 10.0.0.0/8 ')).toBe('10.0.0.0/8');
    expect(text('::ffff:10.0.0.0 /104')).toBe('10.0.0.0/8');
    // A /95 around mapped addresses reaches beyond ::ffff:0:0/96: no IPv4 network says it, an IPv6 one does.
    expect(text('::ffff:10.0.0.0/95')).toBe('::fffe:0:0/95');
  });

  it('reads a mapped network of exactly 96 bits, the whole mapping, as every IPv4 address', () => {
    const network = parseNetwork('::ffff:0:0/96') as Network;
    expect(networkText(network)).toBe('0.0.0.0/0');
    expect(networkHolds(network, '203.0.113.7')).toBe(true);
    expect(networksOverlap(network, parseNetwork('10.0.0.0/8') as Network)).toBe(true);
  });

  describe('embeddedIpv4Prefix', () => {
    const embedded = (entry: string) => embeddedIpv4Prefix(parseNetwork(entry) as Network);

    it.each([
      ['::/96', 0],
      ['64:ff9b::/96', 0],
      ['::/80', 0],
      ['::/0', 0],
      ['::/64', 0],
      ['64:ff9b::/32', 0],
      ['64:ff9b::/64', 0],
      ['::ffff:0:0/95', 0],
      ['::fffe:0:0/95', 0],
      ['::/97', 1],
      ['64:ff9b::/100', 4],
      ['64:ff9b::a00:0/104', 8],
      ['::10.0.0.0/104', 8],
      ['64:ff9b::cb00:7100/120', 24],
      ['64:ff9b::203.0.113.7', 32],
      ['::1', 32],
    ])('counts %s as an IPv4 /%i', (entry, prefix) => {
      expect(embedded(entry)).toBe(prefix);
    });

    it.each([
      '2001:db8::/32',
      '64:ff9c::/96',
      '64:ff9b:1::/96',
      '::1:0:0:0/96',
      '::fffe:0:0/96',
      '1::ffff:0:0/96',
      '10.0.0.0/8',
      '0.0.0.0/0',
    ])('finds no embedded IPv4 in %s', (entry) => {
      expect(embedded(entry)).toBeNull();
    });

    it('counts the IPv4 bits any network within an embedding range fixes, and 0 for one around it', () => {
      const ranges = [0n, 0xffffn << 32n, 0x64ff9bn << 96n];
      fc.assert(
        fc.property(
          fc.constantFrom(...ranges),
          fc.bigInt({ min: 0n, max: (1n << 32n) - 1n }),
          fc.integer({ min: 0, max: 128 }),
          (range, low, prefix) => {
            const mask = ((1n << 128n) - 1n) ^ ((1n << BigInt(128 - prefix)) - 1n);
            const bits = (range | low) & mask;
            const bytes = Array.from({ length: 16 }, (_, index) => Number((bits >> BigInt(8 * (15 - index))) & 0xffn));
            const network: Network = { family: 6, base: ipaddr.fromByteArray(bytes), prefix };
            expect(embeddedIpv4Prefix(network)).toBe(Math.max(prefix - 96, 0));
          },
        ),
      );
    });
  });

  it('finds networks that nest, whichever comes first, and never across families', () => {
    const net = (entry: string) => parseNetwork(entry) as Network;
    expect(networksOverlap(net('127.0.0.0/24'), net('127.0.0.5'))).toBe(true);
    expect(networksOverlap(net('127.0.0.5'), net('127.0.0.0/24'))).toBe(true);
    expect(networksOverlap(net('127.0.0.0/25'), net('127.0.0.128/25'))).toBe(false);
    expect(networksOverlap(net('::ffff:127.0.0.1'), net('127.0.0.1'))).toBe(true);
    expect(networksOverlap(net('::1'), net('0.0.0.1'))).toBe(false);
  });
});
