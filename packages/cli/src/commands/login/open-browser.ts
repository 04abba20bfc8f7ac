import { spawn } from 'node:child_process';

/**
 * Opens `url` in the user's browser: the program named by `BROWSER` when it is set (as git, gh and xdg-open
 * honour it), else the system's way through the `open` package, loaded only here. Resolves false when no browser
 * could be started; the caller has printed the address already, so the user can open it by hand.
 */
export async function openBrowser(url: string, env: Record<string, string | undefined>): Promise<boolean> {
  const browser = env.BROWSER?.trim();
  try {
    if (browser) {
      const child = spawn(browser, [url], {
        stdio: 'ignore',
        detached: true,
        env: { ...process.env, ...env },
      });
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
      child.unref();
      return true;
    }
    const { default: open } = await import('open');
    const child = await open(url);
    child.once('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
