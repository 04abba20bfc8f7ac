/** The colour scheme: the system's unless the user picked one, which this browser then remembers. */
export type Theme = 'light' | 'dark';

const THEME_KEY = 'dataplatform.theme';

export function storedTheme(): Theme | null {
  const value = localStorage.getItem(THEME_KEY);
  return value === 'light' || value === 'dark' ? value : null;
}

export function systemTheme(): Theme {
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Applies a theme to the page (the stylesheet reads `data-theme` on the root element) and remembers it. */
export function applyTheme(theme: Theme, remember: boolean): void {
  document.documentElement.dataset.theme = theme;
  if (remember) localStorage.setItem(THEME_KEY, theme);
}
