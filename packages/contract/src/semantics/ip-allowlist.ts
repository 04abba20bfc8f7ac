import ipaddr from 'ipaddr.js';
import type { Violation } from './documents.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** A parsed allowlist entry: a network and its prefix length (a single address is a full-length prefix). */
type Range = [Address, number];

/**
 * An address as the allowlist compares it: IPv4-mapped IPv6 (`::ffff:203.0.113.5`, what a dual-stack socket
 * reports for an IPv4 client) becomes plain IPv4. Null when `text` is not an address.
 */
export function normalizeAddress(text: string): Address | null {
  if (!ipaddr.isValid(text)) return null;
  return ipaddr.process(text);
}

/** Parses an entry (`203.0.113.5`, `203.0.113.0/24`, `2001:db8::/32`); null when it is neither address nor range. */
export function parseAllowlistEntry(entry: string): Range | null {
  if (entry.includes('/')) {
    if (!ipaddr.isValidCIDR(entry)) return null;
    const [address, bits] = ipaddr.parseCIDR(entry);
    // An IPv4-mapped range stands for the IPv4 range it maps.
    if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
      return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
    }
    return [address, bits];
  }
  const address = normalizeAddress(entry);
  if (!address) return null;
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

/** True when `address` falls in any entry, or when the list is empty (no restriction). */
export function isAddressAllowed(address: string, entries: readonly string[]): boolean {
  if (entries.length === 0) return true;
  const client = normalizeAddress(address);
  if (!client) return false;
  return entries.some((entry) => {
    const range = parseAllowlistEntry(entry);
    if (!range || range[0].kind() !== client.kind()) return false;
    return client.match(range);
  });
}

/**
 * 403 `ip_blocked` for a request from `ip` to a route behind the account's allowlist `entries`; null when the
 * address is allowed (or the list is empty).
 */
export function checkAllowlistAccess(ip: string, entries: readonly string[]): Violation | null {
  if (isAddressAllowed(ip, entries)) return null;
  return {
    code: 'ip_blocked',
    message: `Requests from ${ip} are not in this account's IP allowlist`,
    details: { ip },
  };
}

/**
 * The allowlist an update asks for (entries trimmed, repeats dropped), or the violation when it would lock out
 * the address the change comes from: a non-empty list must include it, so that nobody cuts themselves off by
 * mistake.
 */
export function allowlistUpdate(requested: readonly string[], clientIp: string): string[] | Violation {
  const entries = [...new Set(requested.map((entry) => entry.trim()))];
  if (isAddressAllowed(clientIp, entries)) return entries;
  return {
    code: 'validation_error',
    message: `Invalid body field "entries": the list does not include ${clientIp}, the address of this request; add it, or you would lock yourself out`,
    details: { in: 'body', field: 'entries', clientIp },
  };
}
