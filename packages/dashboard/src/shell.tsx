import { useEffect, useRef, useState } from 'preact/hooks';
import { AreaPage } from './area-page.js';
import { AREAS } from './areas.js';
import { useSession } from './context.js';
import { href, onLinkClick, useRoute } from './router.js';
import { forgetSession } from './session.js';
import { applyTheme, storedTheme, systemTheme, type Theme } from './theme.js';
import { Bell } from './ui/bell.js';
import { Mark } from './ui/mark.js';

function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(() => storedTheme() ?? systemTheme());
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      class="icon-button"
      aria-label={`Use the ${next} theme`}
      onClick={() => {
        applyTheme(next, true);
        setTheme(next);
      }}
    >
      <span aria-hidden="true">{theme === 'dark' ? '☀' : '☾'}</span>
    </button>
  );
}

function ClusterPicker() {
  const { clusters, clusterId, setClusterId } = useSession();
  return (
    <label class="cluster-picker">
      <span class="visually-hidden-narrow">Cluster</span>
      <select value={clusterId} onChange={(event) => setClusterId(event.currentTarget.value)}>
        {clusters.map((cluster) => (
          <option key={cluster._id} value={cluster._id}>
            {cluster.name} ({cluster.region}){cluster.status === 'running' ? '' : ` · ${cluster.status}`}
          </option>
        ))}
      </select>
    </label>
  );
}

function SignOut() {
  const { client } = useSession();
  return (
    <button
      type="button"
      onClick={async () => {
        await client.auth.logout().catch(() => undefined);
        forgetSession();
      }}
    >
      Sign out
    </button>
  );
}

/** The frame of every page: the top bar, the navigation of every area and the page of the current address. */
export function Shell() {
  const session = useSession();
  const route = useRoute();
  const [menuOpen, setMenuOpen] = useState(false);
  const segments = route.path.split('/').filter(Boolean).map(decodeURIComponent);
  const area = AREAS.find((candidate) => candidate.segment === (segments[0] ?? '')) ?? null;
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);

  useEffect(() => {
    document.title = `${area?.label ?? 'Not found'} · dataplatform`;
    setMenuOpen(false);
    // After a navigation (not the first load), focus goes to the new page so screen readers start reading it.
    if (first.current) first.current = false;
    else main.current?.focus();
    session.refreshUnread();
  }, [route.path]);

  return (
    <div class="app">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <button
          type="button"
          class="icon-button menu-button"
          aria-expanded={menuOpen}
          aria-controls="areas"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <span aria-hidden="true">☰</span>
          <span class="visually-hidden">Menu</span>
        </button>
        <a class="brand" href={href('/')} onClick={onLinkClick}>
          <Mark />
          <span>dataplatform</span>
        </a>
        <ClusterPicker />
        <div class="topbar-end">
          <a class="notifications-link" href={href('/notifications')} onClick={onLinkClick}>
            <Bell />
            <span class="visually-hidden">Notifications</span>
            {session.unread > 0 ? (
              <span class="badge" data-testid="unread-badge">
                {session.unread}
                <span class="visually-hidden"> unread</span>
              </span>
            ) : null}
          </a>
          <ThemeToggle />
          <a class="account-link" href="/account" title={session.user.email}>
            {session.user.name}
          </a>
          <SignOut />
        </div>
      </header>
      <div class="layout">
        <nav id="areas" class={menuOpen ? 'sidebar open' : 'sidebar'} aria-label="Areas">
          <ul>
            {AREAS.map((candidate) => (
              <li key={candidate.segment}>
                <a
                  href={href(`/${candidate.segment}`)}
                  aria-current={candidate === area ? 'page' : undefined}
                  onClick={onLinkClick}
                >
                  {candidate.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" ref={main} tabIndex={-1}>
          {area ? (
            <AreaPage key={`${area.segment}:${session.clusterId}`} area={area} rest={segments.slice(1)} />
          ) : (
            <>
              <h1>Page not found</h1>
              <p>
                There is no page at this address. <a href={href('/')}>Go to the overview</a>.
              </p>
            </>
          )}
        </main>
      </div>
    </div>
  );
}
