import { describe, expect, it } from 'vitest';
import { keysRoutes, robotsRoutes, routes } from './index.js';

describe('the routes behind the IP allowlist (ipGuarded)', () => {
  const guarded = routes.filter((route) => route.ipGuarded).map((route) => route.id);

  it('are every key and robot route, the profile and the change of the allowlist', () => {
    expect(new Set(guarded)).toEqual(
      new Set([
        ...keysRoutes.map((route) => route.id),
        ...robotsRoutes.map((route) => route.id),
        'auth.profile',
        'settings.setIpAllowlist',
        'settings.update',
      ]),
    );
  });

  it('are session routes that document 403 ip_blocked', () => {
    for (const route of routes.filter((r) => r.ipGuarded)) {
      expect(route.auth, route.id).toBe('session');
      expect(route.errors as readonly string[], route.id).toContain('ip_blocked');
    }
  });
});
