import { IpAllowlist, IpAllowlistUpdate, Settings, SettingsPatch } from '../schemas/settings.js';
import type { RouteDefinition } from './types.js';

const tag = 'settings';

/** Account settings under /api/settings. */
export const settingsRoutes = [
  {
    id: 'settings.get',
    method: 'GET',
    path: '/api/settings',
    tag,
    summary: 'Read your settings',
    description:
      'The account (name, time zone), security (IP allowlist, session lifetime) and data (default cluster) settings.',
    auth: 'session',
    scopes: [],
    success: { status: 200, description: 'The settings', schema: Settings },
    errors: [],
  },
  {
    id: 'settings.update',
    method: 'PATCH',
    path: '/api/settings',
    tag,
    summary: 'Change your settings',
    description:
      'A JSON merge patch of the settings, checked as a whole before anything changes. A new session lifetime applies to sessions started afterwards; sessions already open keep theirs. Subject to the IP allowlist, as the allowlist itself is one of the settings.',
    auth: 'session',
    ipGuarded: true,
    scopes: [],
    body: SettingsPatch,
    success: { status: 200, description: 'The settings after the change', schema: Settings },
    errors: ['validation_error', 'invalid_json', 'invalid_body', 'ip_blocked'],
  },
  {
    id: 'settings.getIpAllowlist',
    method: 'GET',
    path: '/api/settings/ip-allowlist',
    tag,
    summary: 'Read the IP allowlist',
    description:
      'Answers from any address, with the address the request came from, so a blocked user can see why.',
    auth: 'session',
    scopes: [],
    success: { status: 200, description: 'The allowlist', schema: IpAllowlist },
    errors: [],
  },
  {
    id: 'settings.setIpAllowlist',
    method: 'PUT',
    path: '/api/settings/ip-allowlist',
    tag,
    summary: 'Replace the IP allowlist',
    description:
      'Addresses and CIDR ranges, IPv4 and IPv6; an empty list lifts the restriction. The change itself must come from an allowed address (403 `ip_blocked`), and a non-empty list must include the address it is sent from (400 `validation_error`), so nobody locks themselves out by mistake. A password reset clears the list.',
    auth: 'session',
    ipGuarded: true,
    scopes: [],
    body: IpAllowlistUpdate,
    success: { status: 200, description: 'The new allowlist', schema: IpAllowlist },
    errors: ['validation_error', 'invalid_json', 'invalid_body', 'ip_blocked'],
  },
] as const satisfies readonly RouteDefinition[];
