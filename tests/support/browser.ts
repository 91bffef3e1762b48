/**
 * Headless Chromium through playwright-core: the machine's /usr/bin/chromium (Debian's package;
 * CHROMIUM_PATH overrides), with the flags this closed network needs.
 */
import { chromium, type Browser } from 'playwright-core';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
  });
}
