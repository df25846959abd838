import net from 'node:net';

// Which addresses a callback may be sent to (docs/decisions/callbacks.md): a pure function over an
// address literal, so the tests list private and public addresses as data and never connect to
// them. Refused: loopback, private, shared (carrier NAT), link-local (the cloud metadata address
// 169.254.169.254 included), unique-local, unspecified, multicast and reserved ranges, in IPv4,
// IPv6 and the IPv6 forms that carry an IPv4 address (mapped ::ffff:a.b.c.d, the deprecated
// compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), which are checked as that IPv4 address.
// node:net's BlockList does the matching (no new dependency).

export type AddressProblem =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'multicast'
  | 'reserved'
  | 'not-an-address';

const v4: [string, number, AddressProblem][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'private'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
const v6: [string, number, AddressProblem][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['100::', 64, 'reserved'],
  ['2001:db8::', 32, 'reserved'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'private'],
  ['ff00::', 8, 'multicast'],
];

const lists = new Map<AddressProblem, net.BlockList>();
for (const [base, prefix, problem] of v4) subnet(problem, base, prefix, 'ipv4');
for (const [base, prefix, problem] of v6) subnet(problem, base, prefix, 'ipv6');
function subnet(problem: AddressProblem, base: string, prefix: number, type: 'ipv4' | 'ipv6') {
  let list = lists.get(problem);
  if (!list) lists.set(problem, (list = new net.BlockList()));
  list.addSubnet(base, prefix, type);
}

/** The 8 groups of an IPv6 literal (dotted IPv4 tails and :: expanded), or null. */
function groups(ip: string): number[] | null {
  let s = ip.toLowerCase().split('%')[0];
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    if (net.isIPv4(dotted[2]) === false) return null;
    const [a, b, c, d] = dotted[2].split('.').map(Number);
    s = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  if (fill < 0 || (halves.length === 1 && head.length !== 8)) return null;
  const all = [...head, ...Array<string>(fill).fill('0'), ...tail];
  if (all.length !== 8 || all.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return all.map((g) => parseInt(g, 16));
}

const dottedQuad = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), or null. */
export function embeddedIPv4(ip: string): string | null {
  const g = groups(ip);
  if (!g) return null;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && g[5] === 0xffff) return dottedQuad(g[6], g[7]); // ::ffff:a.b.c.d
  if (zero(0, 6) && (g[6] !== 0 || g[7] > 1)) return dottedQuad(g[6], g[7]); // ::a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return dottedQuad(g[6], g[7]); // NAT64
  if (g[0] === 0x2002) return dottedQuad(g[1], g[2]); // 6to4
  return null;
}

/** Why a callback must not be sent to this address literal, or null when it may. */
export function addressProblem(ip: string): AddressProblem | null {
  const bare = ip.replace(/^\[|\]$/g, '');
  const family = net.isIP(bare.split('%')[0]);
  if (family === 0) return 'not-an-address';
  if (family === 6) {
    const inner = embeddedIPv4(bare);
    if (inner) return addressProblem(inner);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const address = bare.split('%')[0];
  if (family === 4 && address === '255.255.255.255') return 'reserved';
  for (const [problem, list] of lists) if (list.check(address, type)) return problem;
  return null;
}
