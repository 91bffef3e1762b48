/**
 * Headless Chromium through playwright-core: the machine's Chromium (Debian's package, which
 * `npm test`'s first step installs when missing; CHROMIUM_PATH overrides), with the flags this closed network needs.
 */
import { locateSystemPart } from '@sinilill/local-infra';
import { chromium, type Browser } from 'playwright-core';
import { recordContext } from './browser-log';

/** Chromium, each of whose contexts records what its pages do for a failed test's report (browser-log.ts). */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || locateSystemPart('chromium') || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    recordContext(context);
    return context;
  };
  return browser;
}
