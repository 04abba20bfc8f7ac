import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium; CI installs it (see .ci/run). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** True when a Chromium binary is present. */
export const hasChromium = existsSync(CHROMIUM_PATH);

/**
 * Launches headless Chromium with the flags this sandbox needs: no sandbox as root, and no background
 * networking, which would otherwise try to reach Google's hosts. Playwright gives it a fresh temporary profile.
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
