import { existsSync } from 'node:fs';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

/** Debian's chromium (`.ci/run` installs it), driven by playwright-core. */
const CHROMIUM = '/usr/bin/chromium';

/** Headless, no sandbox (CI runs as root), nothing fetched from the network by the browser itself. */
export const CHROMIUM_LAUNCH: LaunchOptions = {
  executablePath: CHROMIUM,
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export const chromiumAvailable = existsSync(CHROMIUM);
export const chromiumMissingReason = `${CHROMIUM} is missing (apt-get install -y chromium)`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch(CHROMIUM_LAUNCH);
}
