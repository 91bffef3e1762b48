/**
 * What the browser did, kept for the failure report of the browser tests: every context made
 * through launchBrowser (tests/support/browser.ts) records its pages' navigations, console
 * warnings and errors, uncaught errors and answers of 400 and above (the last 200 lines), and
 * the e2e project's setup file (browser-log-setup.ts) prints them under a failed test. A test on
 * a busy machine that fails once then says what the page saw, not only which wait ran out.
 */
import type { BrowserContext } from 'playwright-core';

const MAX_LINES = 200;
let lines: string[] = [];
const started = Date.now();

function note(line: string): void {
  lines.push(`${((Date.now() - started) / 1000).toFixed(2).padStart(8)} s  ${line}`);
  if (lines.length > MAX_LINES) lines = lines.slice(-MAX_LINES);
}

/** Starts recording what `context`'s pages do (each page's line starts with its number). */
export function recordContext(context: BrowserContext): void {
  let pages = 0;
  context.on('page', (page) => {
    const id = `p${++pages}`;
    page.on('framenavigated', (frame) => { if (frame === page.mainFrame()) note(`${id} navigated ${frame.url()}`); });
    page.on('console', (message) => { if (message.type() === 'error' || message.type() === 'warning') note(`${id} console.${message.type()} ${message.text()}`); });
    page.on('pageerror', (error) => note(`${id} pageerror ${error.message}`));
    page.on('response', (response) => { if (response.status() >= 400) note(`${id} ${response.status()} ${response.request().method()} ${response.url()}`); });
    page.on('requestfailed', (request) => note(`${id} failed ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`));
  });
}

/** The lines recorded since the last `clearBrowserLog`, oldest first. */
export function browserLog(): readonly string[] {
  return lines;
}

/** Forgets the lines recorded so far (before each test). */
export function clearBrowserLog(): void {
  lines = [];
}
