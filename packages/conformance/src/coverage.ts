import { errorsOf, type RouteDefinition, routes } from '@dataplatform/contract';
import type { LoadedCase } from './load.js';

/** A step's request path with variables, matched to the contract's route table. */
export function routeOf(method: string, path: string): RouteDefinition | undefined {
  const segments = path.split('?')[0]!.split('/');
  const candidates = routes.filter((route) => {
    if (route.method !== method) return false;
    const template = route.path.split('/');
    if (template.length !== segments.length) return false;
    return template.every((part, i) => {
      const segment = segments[i]!;
      if (part.startsWith('{')) return segment !== '';
      // A variable may stand for anything but a fixed segment of the table.
      return segment === part;
    });
  });
  // A fixed path wins over a parameter (`/data/sql` over `/data/{collection}`), as on the server.
  return candidates.sort((a, b) => a.path.split('{').length - b.path.split('{').length)[0];
}

/** What the cases exercise: the routes they call and, per route, the error codes they expect. */
export interface Coverage {
  routes: Set<string>;
  codes: Map<string, Set<string>>;
}

/** The routes and (route, error code) pairs the cases exercise. */
export function coverageOf(cases: readonly LoadedCase[]): Coverage {
  const coverage: Coverage = { routes: new Set(), codes: new Map() };
  for (const { case: testCase } of cases) {
    for (const step of testCase.steps) {
      const route = routeOf(step.request.method, step.request.path);
      if (!route) continue;
      coverage.routes.add(route.id);
      if (step.expect.code) {
        const codes = coverage.codes.get(route.id) ?? new Set<string>();
        codes.add(step.expect.code);
        coverage.codes.set(route.id, codes);
      }
    }
  }
  return coverage;
}

/** The error codes a route documents that a caller can cause over HTTP: every one but the 5xx. */
export function reachableErrors(route: RouteDefinition): string[] {
  return errorsOf(route).filter((code) => code !== 'internal_error' && code !== 'cluster_unavailable');
}
