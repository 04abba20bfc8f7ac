import { z } from 'zod';

/** Most entries an allowlist may hold. */
export const IP_ALLOWLIST_MAX = 100;

/** An address or a CIDR range, IPv4 or IPv6. */
export const IpAllowlistEntry = z
  .union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()])
  .meta({ description: 'An IPv4 or IPv6 address, or a CIDR range', example: '203.0.113.0/24' });

/** Request to replace the IP allowlist. */
export const IpAllowlistUpdate = z
  .strictObject({ entries: z.array(IpAllowlistEntry).max(IP_ALLOWLIST_MAX) })
  .meta({
    id: 'IpAllowlistUpdate',
    description:
      'The new allowlist; an empty list lifts the restriction. A non-empty list must include the address the request comes from.',
  });

/** The IP allowlist of an account, and the address the request came from. */
export const IpAllowlist = z
  .object({
    entries: z.array(z.string()),
    clientIp: z.string().meta({ description: 'The address this request came from, as the server sees it' }),
  })
  .meta({
    id: 'IpAllowlist',
    description:
      'Addresses and CIDR ranges allowed to reach the profile, the API-key routes and this setting; empty means any.',
  });

/** The IP allowlist as the API answers it. */
export type IpAllowlist = z.infer<typeof IpAllowlist>;
