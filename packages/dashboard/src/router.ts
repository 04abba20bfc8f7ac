import { useEffect, useState } from 'preact/hooks';

/** Every dashboard address starts here; the server answers any path under it with the app. */
export const BASE = '/dashboard';

/** The part of the address after /dashboard, e.g. `/documents/orders`, and its query. */
export interface Route {
  path: string;
  query: URLSearchParams;
}

function current(): Route {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) || '/' : '/';
  return { path, query: new URLSearchParams(location.search) };
}

const listeners = new Set<() => void>();
addEventListener('popstate', () => {
  for (const listener of listeners) listener();
});

/** Goes to a dashboard path (`/keys`, `/documents/orders?skip=50`) without reloading. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = BASE + (to === '/' ? '' : to);
  if (options.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  for (const listener of listeners) listener();
}

/** The current route, re-rendered on every navigation. */
export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const update = () => setRoute(current());
    listeners.add(update);
    return () => listeners.delete(update);
  }, []);
  return route;
}

/** The full address of a dashboard path, for `href`. */
export const href = (to: string): string => BASE + (to === '/' ? '' : to);

/** A click handler for links inside the app: plain clicks navigate in place, modified clicks open as usual. */
export function onLinkClick(event: MouseEvent): void {
  const anchor = (event.currentTarget as HTMLAnchorElement | null) ?? null;
  if (!anchor || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(anchor.pathname.slice(BASE.length) + anchor.search || '/');
}
