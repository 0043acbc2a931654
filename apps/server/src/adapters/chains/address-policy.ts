import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Which addresses the server may call on a user's behalf (the RPC URL of a private network).
 * With private addresses refused, a URL whose host is, or resolves to, any address of the
 * ranges below is refused before a connection is made: loopback, "this network", private
 * (RFC 1918, IPv6 ULA, which holds the AWS IPv6 metadata address), shared (CGNAT), link-local
 * (which holds the cloud metadata address 169.254.169.254), benchmarking, documentation-free
 * special ranges, multicast and reserved. IPv4 addresses written inside IPv6 (mapped, NAT64,
 * 6to4) are judged by their IPv4 part.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['100::', 64],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:(?:0:)?|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const groups = expandIpv6(lower);
  if (!groups) return undefined;
  const fromGroups = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  // ::ffff:0:0/96 (mapped) and ::ffff:0:0:0/96 (translated)
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return fromGroups(groups[6]!, groups[7]!);
  if (groups.slice(0, 4).every((g) => g === 0) && groups[4] === 0xffff && groups[5] === 0) {
    return fromGroups(groups[6]!, groups[7]!);
  }
  // 64:ff9b::/96 (NAT64 well-known prefix)
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0)) {
    return fromGroups(groups[6]!, groups[7]!);
  }
  // 2002::/16 (6to4): the IPv4 address is in groups 1 and 2
  if (groups[0] === 0x2002) return fromGroups(groups[1]!, groups[2]!);
  // ::a.b.c.d (deprecated IPv4-compatible)
  if (groups.slice(0, 6).every((g) => g === 0) && (groups[6]! > 0 || groups[7]! > 1)) {
    return fromGroups(groups[6]!, groups[7]!);
  }
  return undefined;
}

/** Eight 16-bit groups of an IPv6 address, or undefined when it is not one Node accepts. */
function expandIpv6(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined;
  let text = address;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 ? groups : undefined;
}

/** True when the address (IPv4 or IPv6 text) is not in a private, local or special range. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family !== 6) return false;
  const v4 = embeddedIpv4(address);
  if (v4 !== undefined) return isIP(v4) === 4 && !blocked.check(v4, 'ipv4');
  return !blocked.check(address, 'ipv6');
}

export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKEDADDRESS';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to ${address}, a private or local address`);
    this.name = 'BlockedAddressError';
  }
}

export type ResolvedAddress = { address: string; family: 4 | 6 };
/** Name resolution (tests inject one; the default is the system resolver, as Node's own connections use). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => ({
    address: entry.address,
    family: entry.family === 6 ? 6 : 4,
  }));

/** `[::1]` → `::1`: URL.hostname keeps the brackets of an IPv6 literal. */
export const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Resolves a host once and returns the address to connect to. With `allowPrivate` false every
 * address the name resolves to must be public (one private answer refuses the whole name, so a
 * round-robin record cannot smuggle one in); the caller connects to the returned address, so a
 * second lookup with another answer (DNS rebinding) cannot happen in between.
 */
export async function resolveAllowed(
  hostname: string,
  options: { allowPrivate: boolean; resolve?: Resolver },
): Promise<ResolvedAddress> {
  const host = bareHost(hostname);
  const literal = isIP(host);
  const addresses: ResolvedAddress[] = literal
    ? [{ address: host, family: literal as 4 | 6 }]
    : await (options.resolve ?? systemResolver)(host);
  if (addresses.length === 0) throw new Error(`${host} did not resolve to any address`);
  if (!options.allowPrivate) {
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused) throw new BlockedAddressError(host, refused.address);
  }
  return addresses[0]!;
}
