/**
 * Short-lived access tokens in the browser, in headless Chromium against `npm start`.
 * The administrator from ADMIN_EMAIL logs in; the console's users list (GET /api/admin/userdata,
 * which shows an empty list when it fails) tells whether the page's calls work.
 *
 * - Login stores a 15-minute access token in localStorage (`token`, spec §4) and the browser keeps
 *   the HttpOnly, Secure, SameSite=Strict refresh cookie for /api/session.
 * - Stale tokens, two kinds: one *expired* (the stored token re-signed with the stack's secret and
 *   an `exp` in the past — the page refreshes it at start), and one the server refuses although it
 *   looks valid (a wrong session version `sv`, so the first call answers 401 and the client refreshes
 *   and repeats it). Either way the page keeps working and stores a fresh token.
 * - Logout clears the refresh cookie, and the server has forgotten its session: the next refresh
 *   answers 401, in the browser and with the old cookie's value sent by hand.
 */
import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { e2eKit } from '../support/e2e-kit';
import type { RunningStack } from '../support/stack';
import { E2E_ADMIN, E2E_JWT_SECRET, sharedStack, E2E_STACKS } from '../support/shared-stack';

const ADMIN = E2E_ADMIN;
const JWT_SECRET = E2E_JWT_SECRET;
const COOKIE = 'sinilill_session';

let stack: RunningStack;
let browser: Browser;
const kit = e2eKit(() => stack, () => browser);

beforeAll(async () => {
  [stack, browser] = await Promise.all([
    sharedStack(E2E_STACKS.april20),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const storedToken = async (page: Page) => (await page.evaluate('window.localStorage.getItem("token")')) as string | null;
/** Replaces the stored token as another tab would (the store follows the `storage` event). */
const replaceStoredToken = (page: Page, token: string) => page.evaluate((value) => {
  window.localStorage.setItem('token', value);
  window.dispatchEvent(new StorageEvent('storage', { key: 'token' }));
}, token);
/** Signs `claims` as the command API does (HS256, the stack's secret). */
const sign = (claims: Record<string, unknown>, iat: number, exp: number) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt(iat).setExpirationTime(exp)
    .sign(new TextEncoder().encode(JWT_SECRET));
/** Waits until the console's users table shows rows (its call succeeded). */
const usersShown = (page: Page) => page.locator('[data-testid="admin-users-table"] [data-testid="admin-row"]').first().waitFor();

describe('sessions in the browser', () => {
  let page: Page;

  test('login: a 15-minute access token in localStorage, the refresh cookie HttpOnly, Secure, SameSite=Strict on /api/session', async () => {
    ({ page } = await kit.newPage('est', 1440));
    await kit.login(page, ADMIN.email, ADMIN.password);
    await page.waitForURL(/\/admin$/);
    await usersShown(page);
    const stored = (await storedToken(page))!;
    expect(stored).toMatch(/^Bearer /);
    const claims = decodeJwt(stored.slice(7));
    expect(claims.exp! - claims.iat!).toBe(15 * 60);
    expect(claims).toMatchObject({ role: 'ADMIN', sv: expect.any(Number), sid: expect.any(String) });
    const cookie = (await page.context().cookies()).find((c) => c.name === COOKIE);
    expect(cookie).toMatchObject({ path: '/api/session', httpOnly: true, secure: true, sameSite: 'Strict' });
  });

  test('an expired stored token: the page refreshes it at start and keeps working', async () => {
    const stored = (await storedToken(page))!;
    const { iat: _iat, exp: _exp, ...claims } = decodeJwt(stored.slice(7));
    const now = Math.floor(Date.now() / 1000);
    const expired = `Bearer ${await sign(claims, now - 20 * 60, now - 5 * 60)}`;
    await page.evaluate((value) => window.localStorage.setItem('token', value), expired);
    const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/session/refresh'));
    await page.reload();
    expect((await refreshed).status()).toBe(200);
    await usersShown(page);
    const fresh = (await storedToken(page))!;
    expect(fresh).not.toBe(expired);
    expect(decodeJwt(fresh.slice(7)).exp! * 1000).toBeGreaterThan(Date.now() + 10 * 60_000);
  });

  test('a token the server refuses (a wrong session version): the call answers 401, the page refreshes, repeats it and keeps working', async () => {
    const stored = (await storedToken(page))!;
    const { iat, exp, ...claims } = decodeJwt(stored.slice(7));
    const wrong = `Bearer ${await sign({ ...claims, sv: (claims.sv as number) + 1 }, iat!, exp!)}`;
    const calls: string[] = [];
    page.on('response', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/')) calls.push(`${r.request().method()} ${url.pathname} ${r.status()}`);
    });
    // The next call goes out with it (the session store reloads the payment info on a new token).
    await replaceStoredToken(page, wrong);
    await page.getByTestId('admin-tab-teams').click();
    await page.locator('[data-testid="admin-teams-table"] [data-testid="admin-row"]').first().waitFor();
    // Each call refused with the wrong token came back 200 after one refresh (calls in flight
    // together share it: the later ones take the token the first one stored).
    const refused = calls.filter((call) => call.endsWith(' 401'));
    expect(refused.length).toBeGreaterThan(0);
    expect(calls[0]).toMatch(/ 401$/);
    expect(calls.filter((call) => call.startsWith('POST /api/session/refresh'))).toEqual(['POST /api/session/refresh 200']);
    for (const call of refused) expect(calls.slice(calls.indexOf(call))).toContain(call.replace(/401$/, '200'));
    // The teams tab reads its first page on the server.
    expect(calls).toContain('GET /api/admin/teams 200');
    expect(await storedToken(page)).not.toBe(wrong);
    expect(await page.getByTestId('admin-console').isVisible()).toBe(true);
  });

  test('logout clears the refresh cookie and ends the session: the next refresh answers 401', async () => {
    const before = (await page.context().cookies()).find((c) => c.name === COOKIE)!;
    const loggedOut = page.waitForResponse((r) => r.url().endsWith('/api/session/logout'));
    await page.getByTestId('nav-logout').click();
    expect((await loggedOut).status()).toBe(200);
    expect(await storedToken(page)).toBeNull();
    expect((await page.context().cookies()).find((c) => c.name === COOKIE)).toBeUndefined();
    const inBrowser = await page.evaluate(async () => (await fetch('/api/session/refresh', { method: 'POST' })).status);
    expect(inBrowser).toBe(401);
    // The old cookie's value, sent by hand: the server revoked it, not only the browser forgot it.
    const byHand = await fetch(`${stack.baseUrl}/api/session/refresh`, { method: 'POST', headers: { cookie: `${COOKIE}=${before.value}` } });
    expect(byHand.status).toBe(401);
  });
});

// the home page says where the edition stands by the app's clock — here 20 April,
// during the month of moving (2 May is rough-edges.e2e's, 6 May public-site.e2e's).
describe('the home page on 20 April: the edition is under way', () => {
  const DURING = {
    est: { heading: 'Sinilill 2025 on täies hoos!', text: 'Liigume 30.\u00a0aprillini' },
    eng: { heading: 'Sinilill 2025 is under way!', text: 'We move until 30\u00a0April' },
  } as const;
  for (const lang of ['est', 'eng'] as const) {
    test(`${lang}: "under way", never "has ended"`, async () => {
      const { context, page } = await kit.newPage(lang);
      await page.goto(stack.baseUrl);
      const notice = page.getByTestId('edition-phase');
      await notice.waitFor();
      expect(await notice.getAttribute('data-phase')).toBe('during');
      const shown = (await notice.textContent()) ?? '';
      expect(shown).toContain(DURING[lang].heading);
      expect(shown).toContain(DURING[lang].text);
      expect(shown).not.toMatch(/on lõppenud|has ended|on läbi|is over/);
      await context.close();
    });
  }
});
