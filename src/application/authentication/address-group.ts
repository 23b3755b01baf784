/**
 * The address a client is rate limited by: an IPv4 address as it is, an IPv6 address by its /64
 * (the least a subscriber is usually given, so one subscriber cannot take a new allowance per
 * address), an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) as its IPv4 address. Anything that is
 * not an IP address is kept as given (lower-cased).
 */
export function addressGroup(address: string): string {
  let value = address.trim().toLowerCase();
  if (value.startsWith('[') && value.endsWith(']')) value = value.slice(1, -1);
  const zone = value.indexOf('%');
  if (zone >= 0) value = value.slice(0, zone);
  if (!value.includes(':')) return value;
  const groups = ipv6Groups(value);
  if (!groups) return address.trim().toLowerCase();
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (with `::` and an IPv4 tail), or undefined when it is not one. */
function ipv6Groups(text: string): number[] | undefined {
  let value = text;
  const ipv4Tail = /(?:^|:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(value);
  if (ipv4Tail) {
    const octets = ipv4Tail.slice(1).map(Number);
    if (octets.some((octet) => octet > 255)) return undefined;
    const tail = `${((octets[0] << 8) | octets[1]).toString(16)}:${((octets[2] << 8) | octets[3]).toString(16)}`;
    value = value.slice(0, value.length - ipv4Tail[0].length + (ipv4Tail[0].startsWith(':') ? 1 : 0)) + tail;
  }
  const halves = value.split('::');
  if (halves.length > 2) return undefined;
  const parts = (half: string) => (half === '' ? [] : half.split(':'));
  const head = parts(halves[0]);
  const tail = halves.length === 2 ? parts(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (!all.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return undefined;
  return all.map((group) => parseInt(group, 16));
}
