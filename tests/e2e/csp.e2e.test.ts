/**
 * The content security policy in a browser: headless Chromium against `npm
 * start` (the 2025 export imported, the clock on 20 April 2025, an administrator from
 * ADMIN_EMAIL) visits every page of the web client — as a visitor, as an unpaid participant and
 * as an administrator (every console tab), in Estonian, and in English those whose requests
 * differ by language (the language is stored, not in the address; see PUBLIC_PAGES_IN_ENGLISH) —
 * and the pages the APIs serve: the API documentation (/api/docs), the payment sandbox's checkout
 * and the queue board. Not one violation may be reported: neither a `securitypolicyviolation` event (a
 * listener added to every document before its scripts run) nor a console message about the
 * policy. The HTML answers carry the policy, the client's with its inline script's hash.
 *
 * One browser, one context, one page; the pages are visited one after another.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import type { AdminUsersAnswer, LoginAnswer } from '@sinilill/contracts';
import { DOCS_PAGE_CSP, OPERATOR_PAGE_CSP, cspHeader, inlineScriptHashes, siteCspDirectives } from '@sinilill/http';
import { launchBrowser } from '../support/browser';
import { fixturePeople } from '../support/app';
import type { RunningStack } from '../support/stack';
import { E2E_ADMIN, sharedStack, E2E_STACKS } from '../support/shared-stack';

const ADMIN = E2E_ADMIN;
const PASSWORD = 'Sinilill liigub aprillis 2025!';

/** A reported violation, with where it happened. */
interface Violation {
  page: string;
  directive?: string;
  blocked?: string;
  source?: string;
  text?: string;
}

let stack: RunningStack;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const violations: Violation[] = [];
/** The page's requests that have neither finished nor failed yet. */
const inFlight = new Set<Request>();
/** Tokens (`Bearer …`) of the administrator and of an unpaid participant of the 2025 export. */
let adminToken: string;
let participantToken: string;

async function api<T>(path: string, init: { token?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${stack.baseUrl}/api${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: { ...(init.token ? { authorization: init.token } : {}), ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
  return await response.json() as T;
}

const login = async (email: string, password: string) => `Bearer ${(await api<LoginAnswer>('/login', { body: { email, password } })).token}`;

beforeAll(async () => {
  [stack, browser] = await Promise.all([
    sharedStack(E2E_STACKS.april20),
    launchBrowser(),
  ]);
  adminToken = await login(ADMIN.email, ADMIN.password);
  // An unpaid participant of the export, with a password the administrator sets.
  const unpaid = fixturePeople().find((person) => !person.isPaid)!;
  const account = (await api<AdminUsersAnswer>('/admin/userdata', { token: adminToken })).users.find((user) => user.email === unpaid.email)!;
  await api('/admin/resetpassword', { token: adminToken, body: { userId: account.id, newPassword: PASSWORD } });
  participantToken = await login(unpaid.email, PASSWORD);

  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.exposeBinding('reportCspViolation', ({ page: from }, violation: Omit<Violation, 'page'>) => {
    violations.push({ page: from.url(), ...violation });
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { reportCspViolation(v: unknown): void }).reportCspViolation({
        directive: event.violatedDirective, blocked: event.blockedURI, source: `${event.sourceFile}:${event.lineNumber}`, text: event.sample,
      });
    });
  });
  page = await context.newPage();
  page.on('request', (request) => inFlight.add(request));
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('requestfailed', (request) => inFlight.delete(request));
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) violations.push({ page: page.url(), text: message.text() });
  });
}, 300_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await stack?.stop();
});

/** Sets the stored session (`Bearer …` or none) and language, as the client keeps them. */
async function session(token: string | null, lang: 'est' | 'eng'): Promise<void> {
  if (!page.url().startsWith(stack.baseUrl)) await page.goto(`${stack.baseUrl}/privacy`);
  await page.evaluate(([t, l]) => {
    if (t) localStorage.setItem('token', t);
    else localStorage.removeItem('token');
    localStorage.setItem('lang', l!);
  }, [token, lang] as const);
}

/** Opens `path` and waits until the page has settled: loaded, its main content shown, nothing loading. */
async function visit(path: string, ready = 'main#main'): Promise<void> {
  await page.goto(`${stack.baseUrl}${path}`, { waitUntil: 'load' });
  await settled(ready);
}

/** Waits for `ready`, then until no spinner is left in the page's main content and the page is quiet. */
async function settled(ready: string): Promise<void> {
  await page.locator(ready).first().waitFor({ timeout: 15_000 });
  // The spinner (components/ui/spinner.tsx): a status with hidden circles.
  await page.waitForFunction(() => document.querySelector('main [role="status"] > [aria-hidden="true"]') === null, undefined, { timeout: 5_000 })
    .catch(() => undefined);
  await quiet();
}

/**
 * Waits until the page's pictures have loaded and none of its requests is in flight (a long-lived
 * stream, such as the live figures' event stream, does not count): a violation a late resource
 * would cause has been reported by then.
 */
async function quiet(): Promise<void> {
  await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete), undefined, { timeout: 5_000 })
    .catch(() => undefined);
  await expect.poll(() => [...inFlight].filter((request) => request.resourceType() !== 'eventsource').length, { timeout: 5_000 })
    .toBe(0).catch(() => undefined);
}

/** Shows another tab of the admin console (no page load). */
async function openTab(tab: string): Promise<void> {
  await page.getByTestId(`admin-tab-${tab}`).click();
  await settled(`[data-testid="admin-panel-${tab}"]`);
}

/**
 * The client's public pages. All of them in Estonian; in English the ones whose requests differ
 * beyond the texts' chunks (the first page's inline script picks the language's chunk; the news
 * are asked for in the language; the guide's screenshots are per language).
 */
const PUBLIC_PAGES = [
  '/', '/participants', '/register', '/success', '/login', '/login?type=forgot', '/passwordreset/token/00000000-0000-4000-8000-000000000000',
  '/confirm/account/token/00000000-0000-4000-8000-000000000000', '/history', '/guide', '/sponsor', '/news', '/privacy',
  '/payment/success?amount=15&code=ABC123', '/payment/failed', '/no-such-page',
];
const PUBLIC_PAGES_IN_ENGLISH = ['/', '/news', '/guide'];
const ADMIN_TABS = ['users', 'teams', 'entries', 'resetPassword', 'history', 'operations'];

beforeEach(() => { violations.length = 0; });

describe('a content security policy the client passes', () => {
  test('the HTML answers carry their policies; the client\'s allows its inline script by its hash; a violation would be seen', async () => {
    const home = await fetch(`${stack.baseUrl}/`);
    const html = await home.text();
    const hashes = inlineScriptHashes(html);
    expect(hashes.length).toBeGreaterThan(0);
    expect(home.headers.get('content-security-policy')).toBe(cspHeader(siteCspDirectives(hashes)));
    // A client-side route (index.html from the not-found handler) carries it too.
    expect((await fetch(`${stack.baseUrl}/team`)).headers.get('content-security-policy')).toBe(cspHeader(siteCspDirectives(hashes)));
    expect((await fetch(`${stack.baseUrl}/api/docs`)).headers.get('content-security-policy')).toBe(DOCS_PAGE_CSP);

    // The watch works: a script injected at run time is refused and reported.
    await visit('/privacy');
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.head.append(script);
    });
    await expect.poll(() => violations.filter((v) => v.directive?.startsWith('script-src')).length).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
    violations.length = 0;
  });

  test('no violation on any page of a visitor\'s, nor in the API documentation', async () => {
    await session(null, 'est');
    for (const path of PUBLIC_PAGES) await visit(path);
    await session(null, 'eng');
    for (const path of PUBLIC_PAGES_IN_ENGLISH) await visit(path);
    await visit('/api/docs', '#swagger-ui .information-container');
    // The other document too (the UI's selector of definitions).
    await page.locator('#swagger-ui select#select').selectOption({ label: 'Command API' });
    await page.getByText('Sinilill command API').first().waitFor();
    expect(violations).toEqual([]);
  });

  test('no violation on a participant\'s pages, nor on the payment sandbox\'s checkout', async () => {
    await session(participantToken, 'eng');
    await visit('/team', '[data-testid="team-icon"]');
    await session(participantToken, 'est');
    await visit('/team', '[data-testid="team-icon"]');
    await visit('/account', '[data-testid="account-greeting"]');
    // To the sandbox's checkout page (served by the command API with its own policy) and back.
    await visit('/pay', '[data-testid="pay-method"]');
    await page.getByTestId('pay-method').first().click();
    await page.getByTestId('pay-amount').fill('15.00');
    await page.getByTestId('pay-submit').click();
    await page.getByTestId('sandbox-fail').waitFor();
    await page.getByTestId('sandbox-fail').click();
    await page.waitForURL(/\/payment\/failed/);
    await page.getByTestId('payment-failed').waitFor();
    expect(violations).toEqual([]);
  });

  test('no violation in the admin console, any tab, nor on the queue board', async () => {
    await session(adminToken, 'eng');
    await visit('/admin?tab=history', '[data-testid="admin-panel-history"]');
    await session(adminToken, 'est');
    await visit('/admin?tab=users', '[data-testid="admin-panel-users"]');
    for (const tab of ADMIN_TABS.slice(1)) await openTab(tab);
    // The queue board (Bull Board, served by the command API): its cookie first, as the console's button does.
    const board = await page.evaluate(async (token) => (await fetch('/api/admin/queues/session', { method: 'POST', headers: { authorization: token } })).status, adminToken);
    expect(board).toBe(200);
    const answer = await page.goto(`${stack.baseUrl}/api/admin/queues`, { waitUntil: 'load' });
    expect(answer?.headers()['content-security-policy']).toBe(OPERATOR_PAGE_CSP);
    await page.waitForFunction(() => (document.querySelector('#root')?.textContent ?? '').includes('projection') || document.querySelectorAll('#root a').length > 2, undefined, { timeout: 15_000 });
    await quiet();
    expect(violations).toEqual([]);
  });
});
