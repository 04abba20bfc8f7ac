import { keysRoutes, type RouteDefinition, robotsRoutes } from '@dataplatform/contract';

/**
 * Session routes behind the account's IP allowlist: every key and robot route, as keys are what reach the data;
 * the profile; and the change of the allowlist itself, so that a stolen session cannot widen it.
 */
const GUARDED = new Set<string>([
  ...keysRoutes.map((route) => route.id),
  ...robotsRoutes.map((route) => route.id),
  'auth.profile',
  'settings.setIpAllowlist',
]);

/** Whether the route runs the IP allowlist after its session check. */
export function isIpGuarded(route: RouteDefinition): boolean {
  return GUARDED.has(route.id);
}
