import { isIP } from 'node:net';

/**
 * Which addresses the upload-by-URL fetcher may connect to. Anything that is not plainly
 * on the public internet is refused, so a user cannot make the server reach its own
 * network (admin ports, cloud metadata at 169.254.169.254, databases).
 */

type Range = [prefix: number[], bits: number];

const V4_BLOCKED: Range[] = [
  [[0], 8], // "this" network, 0.0.0.0
  [[10], 8], // private
  [[100, 64], 10], // carrier-grade NAT
  [[127], 8], // loopback
  [[169, 254], 16], // link-local, cloud metadata
  [[172, 16], 12], // private
  [[192, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2], 24], // documentation
  [[192, 88, 99], 24], // 6to4 relay anycast
  [[192, 168], 16], // private
  [[198, 18], 15], // benchmarking
  [[198, 51, 100], 24], // documentation
  [[203, 0, 113], 24], // documentation
  [[224], 4], // multicast
  [[240], 4], // reserved and broadcast
];

const V6_BLOCKED: Range[] = [
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64], // discard-only
  [[0x20, 0x01, 0x0d, 0xb8], 32], // documentation
  [[0xfc], 7], // unique-local
  [[0xfe, 0x80], 10], // link-local
  [[0xfe, 0xc0], 10], // old site-local
  [[0xff], 8], // multicast
];

function inRange(bytes: number[], [prefix, bits]: Range): boolean {
  for (let i = 0; i * 8 < bits; i++) {
    const mask = bits - i * 8 >= 8 ? 0xff : (0xff << (8 - (bits - i * 8))) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

export function parseIPv4(ip: string): number[] | null {
  const parts = ip.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return parts.map(Number);
}

/** 16 bytes of an IPv6 address (zone id dropped, embedded dotted IPv4 tail supported). */
export function parseIPv6(input: string): number[] | null {
  let ip = input.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const v4Tail = ip.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/);
  if (v4Tail) {
    const v4 = parseIPv4(v4Tail[2]!);
    if (!v4) return null;
    ip = `${v4Tail[1]}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const halves = ip.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 2 && missing < 1) || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  return groups.flatMap((g) => [Number.parseInt(g, 16) >> 8, Number.parseInt(g, 16) & 0xff]);
}

/** The IPv4 address an IPv6 address stands for (mapped, compatible, NAT64, 6to4), if any. */
function embeddedIPv4(b: number[]): number[] | null {
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return b.slice(12); // ::ffff:a.b.c.d
  if (zeros(0, 12)) return b.slice(12); // ::a.b.c.d (deprecated), also :: and ::1
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return b.slice(12); // 64:ff9b::/96
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6); // 2002::/16 6to4
  return null;
}

/** True when the address is not a public unicast address (or is not an address at all). */
export function isBlockedAddress(ip: string): boolean {
  const family = isIP(ip.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  if (family === 4) {
    const b = parseIPv4(ip);
    return !b || V4_BLOCKED.some((r) => inRange(b, r));
  }
  if (family !== 6) return true;
  const b = parseIPv6(ip);
  if (!b) return true;
  const v4 = embeddedIPv4(b);
  if (v4) return V4_BLOCKED.some((r) => inRange(v4, r));
  return V6_BLOCKED.some((r) => inRange(b, r));
}
