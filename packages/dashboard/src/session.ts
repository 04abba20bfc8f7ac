/**
 * The dashboard's credential: the session token the server's /login page hands to its own pages in the URL
 * fragment, kept in this tab's sessionStorage under the same name as the /account page uses (docs/architecture.md,
 * "The dashboard"). It travels as `Authorization: Bearer` only, never as a cookie, so no other site can make the
 * browser send it (no CSRF), and it ends with the tab.
 */
const TOKEN_KEY = 'dataplatform.session';
/** Where the user was going when sign-in was needed; /login only takes `/dashboard` as its target. */
const RETURN_KEY = 'dataplatform.dashboard-return';

/** Moves a token from the fragment into storage (and out of the address bar and history), then reads it. */
export function takeToken(): string | null {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const fromFragment = fragment.get('token');
  if (fromFragment) {
    sessionStorage.setItem(TOKEN_KEY, fromFragment);
    const back = sessionStorage.getItem(RETURN_KEY);
    sessionStorage.removeItem(RETURN_KEY);
    history.replaceState(
      null,
      '',
      back?.startsWith('/dashboard') ? back : location.pathname + location.search,
    );
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

/** Sends the browser to sign in, to come back to the page it is on. */
export function goToSignIn(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.setItem(RETURN_KEY, location.pathname + location.search);
  location.assign('/login?redirect_to=%2Fdashboard');
}

/** Forgets the token (after the server ended the session) and shows the sign-in page. */
export function forgetSession(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  location.assign('/login?redirect_to=%2Fdashboard');
}
