import { z } from 'zod';
import { label } from './common.js';

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

/** Shortest and longest session lifetime an account may choose, in hours (one hour to 90 days). */
export const SESSION_LIFETIME_HOURS = { min: 1, max: 2160 } as const;

/** An IANA time zone name, such as `Europe/Paris` or `UTC`, as the runtime's time zone database knows it. */
export const TimeZone = z
  .string()
  .max(64)
  .refine(isTimeZone, 'Must be an IANA time zone name, such as Europe/Paris')
  .meta({ description: 'An IANA time zone name', example: 'Europe/Paris' });

/** True when `name` is a time zone the runtime knows. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name.trim() !== '';
  } catch {
    return false;
  }
}

/** The settings of the signed-in user's account. */
export const Settings = z
  .object({
    account: z.object({
      name: z.string().meta({ description: "The user's display name" }),
      timezone: z
        .string()
        .meta({ description: 'IANA time zone the dashboard shows times in; `UTC` by default' }),
    }),
    security: z.object({
      ipAllowlist: z.array(z.string()).meta({ description: 'The IP allowlist; empty means any address' }),
      sessionLifetimeHours: z.number().int().meta({
        description: "Lifetime of new sessions, in hours; the server's `DATAPLATFORM_SESSION_TTL` by default",
      }),
    }),
    data: z.object({
      defaultClusterId: z.string().nullable().meta({
        description:
          'The cluster a session token acts on without `X-Cluster-Id`; null: the first cluster the user owns',
      }),
    }),
  })
  .meta({ id: 'Settings', description: "The signed-in user's account settings." });

/** A merge patch of the settings: only what it names changes; `null` puts a setting back to its default. */
export const SettingsPatch = z
  .strictObject({
    account: z
      .strictObject({
        name: label(100).optional(),
        timezone: TimeZone.nullable().optional(),
      })
      .optional(),
    security: z
      .strictObject({
        ipAllowlist: z.array(IpAllowlistEntry).max(IP_ALLOWLIST_MAX).optional(),
        sessionLifetimeHours: z
          .number()
          .int()
          .min(SESSION_LIFETIME_HOURS.min)
          .max(SESSION_LIFETIME_HOURS.max)
          .nullable()
          .optional(),
      })
      .optional(),
    data: z.strictObject({ defaultClusterId: z.string().min(1).max(128).nullable().optional() }).optional(),
  })
  .meta({
    id: 'SettingsPatch',
    description:
      'A JSON merge patch (RFC 7396) of the settings: fields left out stay; `null` restores the default of a time zone, a session lifetime or a default cluster. A non-empty `ipAllowlist` must include the address the request comes from; `defaultClusterId` must name a cluster the user is a member of.',
  });

/** The settings as the API answers them. */
export type Settings = z.infer<typeof Settings>;
/** A merge patch of the settings. */
export type SettingsPatch = z.infer<typeof SettingsPatch>;
