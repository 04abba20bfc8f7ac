import { isIP } from 'node:net';

/** One address a name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Reads a hosts file (`/etc/hosts` format: an address, then its names, `#` comments) into the addresses of each
 * name, lower-cased, in file order. Lines whose first field is not an IP address are skipped.
 *
 * @example parseHostsFile('127.0.0.1 localhost\n10.0.0.5 billing.internal # the API').get('billing.internal')
 */
export function parseHostsFile(text: string): Map<string, ResolvedAddress[]> {
  const names = new Map<string, ResolvedAddress[]>();
  for (const line of text.split(/\r?\n/)) {
    const [address, ...aliases] = line.replace(/#.*/, '').trim().split(/\s+/);
    const family = address ? isIP(address) : 0;
    if (family !== 4 && family !== 6) continue;
    for (const alias of aliases) {
      const name = alias.toLowerCase();
      const known = names.get(name) ?? [];
      if (!known.some((entry) => entry.address === address)) known.push({ address: address!, family });
      names.set(name, known);
    }
  }
  return names;
}
