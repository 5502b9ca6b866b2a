// Client addresses as limit keys. One person controls a whole IPv6 /64 (a home or a VM gets one),
// so per-address limits count IPv6 clients by their /64; IPv4-mapped IPv6 addresses count as
// the IPv4 address they carry. Anything that is not an IP address is not a limit key.
import { isIP } from 'node:net';
import { BoundedMap } from './bounded-map.ts';

// Every request asks for its address's key (limits, connection budgets): the keys of recent
// addresses are kept, so a request from a known address costs a lookup, not isIP's regular
// expressions. Bounded (oldest out); a key depends on the address alone.
const recentKeys = new BoundedMap<string, string | null>(4096);

/** The limit key of an address: IPv4 as is, IPv6 as its /64 ("2001:db8:0:1::/64"), else null. */
export function addressKey(address: string | undefined): string | null {
  if (!address) return null;
  const known = recentKeys.get(address);
  if (known !== undefined) return known;
  const key = keyOf(address);
  recentKeys.set(address, key);
  return key;
}

function keyOf(address: string): string | null {
  const kind = isIP(address);
  if (kind === 4) return address;
  if (kind !== 6) return null;
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return mapped[1]!;
  return `${expandIpv6(lower).slice(0, 4).join(':')}::/64`;
}

/** The eight hextets of an IPv6 address, without leading zeros (a zone index is dropped). */
function expandIpv6(address: string): string[] {
  const plain = address.split('%')[0]!;
  const [head, tail] = plain.includes('::') ? plain.split('::') : [plain, undefined];
  const part = (s: string | undefined) => (s ? s.split(':') : []);
  let left = part(head);
  let right = part(tail);
  // A trailing dotted IPv4 part counts as two hextets.
  const v4 = (list: string[]) => {
    const last = list.at(-1);
    if (!last?.includes('.')) return list;
    const b = last.split('.').map(Number);
    return [
      ...list.slice(0, -1),
      ((b[0]! << 8) | b[1]!).toString(16),
      ((b[2]! << 8) | b[3]!).toString(16),
    ];
  };
  if (tail === undefined) left = v4(left);
  else right = v4(right);
  const fill = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((h) => (parseInt(h, 16) || 0).toString(16));
}

/** Loopback, including IPv4-mapped 127.0.0.0/8. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  if (address === '::1') return true;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return isIP(v4) === 4 && v4.startsWith('127.');
}
