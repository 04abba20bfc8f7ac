/**
 * The stylesheet of the sign-in, account and device pages, served as `/assets/pages.css`: the dashboard's look
 * (colours, type, focus outline; light and dark from the system) for plain HTML forms.
 */
export const PAGES_CSS = `:root {
  color-scheme: light dark;
  --bg: #f6f7f9; --surface: #ffffff; --text: #16181d; --muted: #4b5361; --border: #cfd5de;
  --accent: #1d4ed8; --accent-text: #ffffff; --danger: #b42318; --focus: #f59e0b;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 15px; line-height: 1.5;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0f1115; --surface: #171a21; --text: #e8eaf0; --muted: #a9b1c0; --border: #363d4b;
    --accent: #7aa2ff; --accent-text: #0b1020; --danger: #ff8a80;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.brand { display: flex; align-items: center; gap: 0.5rem; padding: 0.75rem 1rem; font-weight: 700;
  background: var(--surface); border-bottom: 1px solid var(--border); color: var(--text); text-decoration: none; }
.brand img { width: 28px; height: 28px; }
main { max-width: 30rem; margin: 2rem auto; padding: 1.5rem; background: var(--surface);
  border: 1px solid var(--border); border-radius: 8px; }
h1 { font-size: 1.5rem; margin-top: 0; }
h2 { font-size: 1.1rem; margin-top: 1.5rem; }
label { font-weight: 600; }
input, button { font: inherit; color: var(--text); background: var(--surface); border: 1px solid var(--border);
  border-radius: 8px; padding: 0.45rem 0.75rem; }
input { width: 100%; margin-top: 0.25rem; }
button { cursor: pointer; background: var(--bg); }
button[type="submit"] { background: var(--accent); color: var(--accent-text); border-color: var(--accent); font-weight: 600; }
ul { padding-left: 1.2rem; }
[role="alert"], #status:not(:empty) { font-weight: 600; }
[role="alert"] { color: var(--danger); }
@media (max-width: 32rem) { main { margin: 0; border-radius: 0; border-width: 0 0 1px; } }
`;
