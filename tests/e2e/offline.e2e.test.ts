/**
 * The app on the phone, offline, in headless Chromium against `npm start` (the
 * 2025 export imported, the app's clock on 20 April 2025 so that entries are open):
 *
 * - a paid participant opens the team page online; the service worker installs and controls the
 *   page; the browser goes offline (context.setOffline) and the page is reloaded: the shell and
 *   the last-seen team page show from the worker's caches, under the offline banner;
 * - an entry added offline is listed as waiting to be sent and reaches nobody (the test asks the
 *   API directly, from its own process, which is not offline); it survives a reload (English,
 *   still offline); back online it is sent — with the idempotency key it was queued with — and
 *   the API then has exactly one entry of that distance, also after another reload;
 * - axe finds no serious or critical violation on the page with the banner and the queued row,
 *   in Estonian and in English;
 * - both languages' web app manifests are served (application/manifest+json, no-cache), parse,
 *   name the app and list icons of 192 and 512 px (and a maskable one) that are PNGs of those
 *   sizes; the worker script is served as JavaScript with no-cache; an English page links the
 *   English manifest.
 */
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import type { Entry } from '@sinilill/contracts';
import { launchBrowser } from '../support/browser';
import { e2eKit, type Lang } from '../support/e2e-kit';
import type { RunningStack } from '../support/stack';
import { sharedStack, E2E_STACKS } from '../support/shared-stack';

/** A fixture participant of team 7 who has paid (infra/seed/edition-2025), as layout.e2e uses. */
const PAID = { email: 'participant53@example.ee', password: 'Sinilill liige 2025 parool!' };
/** The distance of the entry added offline: no fixture entry has it. */
const DISTANCE = 13.57;

let stack: RunningStack;
let browser: Browser;
const kit = e2eKit(() => stack, () => browser);

beforeAll(async () => {
  [stack, browser] = await Promise.all([sharedStack(E2E_STACKS.april20), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** The participant's first password, set as its owner would: reset request, mailed link, new password. */
async function setPassword(email: string, password: string): Promise<void> {
  const post = (path: string, body: unknown) =>
    fetch(`${stack.baseUrl}/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect((await post('/requestpasswordreset', { email, lang: 'est' })).status).toBe(200);
  const link = kit.linkIn(await kit.mailTo(email, /parool|password/i), '/passwordreset');
  const [, token, userId] = /\/passwordreset\/([^/]+)\/([^/?#\s]+)/.exec(link)!;
  expect((await post('/resetpassword', { userId, token, newPassword: password })).status).toBe(200);
}

/** The team's entries of DISTANCE km, asked from the test's own process (never offline). */
async function entriesOfDistance(token: string, teamId: number): Promise<Entry[]> {
  const response = await fetch(`${stack.baseUrl}/api/team/${teamId}/entries`, { headers: { authorization: token } });
  expect(response.status).toBe(200);
  return ((await response.json()) as Entry[]).filter((entry) => entry.distance.toFixed(2) === DISTANCE.toFixed(2));
}

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).setLegacyMode(true).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

const text = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

describe('offline', () => {
  test('the last-seen team page reads offline; an entry added offline is queued, then sent exactly once', { timeout: 100_000 }, async () => {
    await setPassword(PAID.email, PAID.password);
    const { context, page } = await kit.newPage('est', 1440);
    await kit.login(page, PAID.email, PAID.password);
    await page.waitForURL(/\/team$/);
    await page.getByTestId('team-card').waitFor();
    const token = await page.evaluate(() => window.localStorage.getItem('token')) as string;
    const claims = JSON.parse(Buffer.from(token.replace(/^Bearer /, '').split('.')[1]!, 'base64url').toString()) as { teamId: number };
    const teamId = claims.teamId;
    expect(await entriesOfDistance(token, teamId)).toEqual([]);

    // The worker installs and takes the page; one more load online goes through it (the copies
    // kept for offline reading are made then).
    await page.evaluate(async () => { await navigator.serviceWorker.ready; });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.reload();
    await page.getByTestId('team-card').waitFor();
    await page.getByTestId('entries-table-row').first().waitFor();
    const teamName = text(await page.getByTestId('team-card').textContent());
    expect(text(await page.getByTestId('offline-banner').textContent())).toBe('');

    // Offline: the reload shows the shell and the team page from the caches, under the banner.
    await context.setOffline(true);
    await page.reload();
    await page.getByTestId('team-card').waitFor({ timeout: 15_000 });
    expect(text(await page.getByTestId('team-card').textContent())).toBe(teamName);
    expect(await page.getByTestId('offline-banner').getAttribute('role')).toBe('status');
    expect(text(await page.getByTestId('offline-banner').textContent())).toContain('Ühendus puudub');

    // An entry added offline: listed as waiting, sent nowhere.
    await page.getByTestId('add-entry').click();
    await page.getByTestId('entry-dialog').waitFor();
    await page.fill('[data-testid="entry-distance"]', String(DISTANCE));
    await page.selectOption('[data-testid="entry-type"]', 'WALK');
    await page.fill('[data-testid="entry-performed-at"]', '2025-04-19');
    await page.getByTestId('entry-submit').click();
    await page.getByTestId('entry-dialog').waitFor({ state: 'hidden' });
    const row = page.getByTestId('queued-entry-row');
    await row.waitFor();
    expect(await row.count()).toBe(1);
    expect(text(await row.textContent())).toContain('13,57');
    expect(text(await row.textContent())).toContain('Ootab saatmist');
    const queue = JSON.parse(await page.evaluate(() => window.localStorage.getItem('sinilill-entry-queue')) ?? '[]') as { key: string }[];
    expect(queue).toHaveLength(1);
    const key = queue[0]!.key;
    expect(key).toMatch(/^[A-Za-z0-9_.:-]{8,100}$/);
    expect(await entriesOfDistance(token, teamId)).toEqual([]);
    expect(await seriousViolations(page), 'axe, Estonian, offline with a queued entry').toEqual([]);

    // Still offline, in English after a reload: the queue is kept, the page and banner are English.
    await page.evaluate(() => window.localStorage.setItem('lang', 'eng'));
    await page.reload();
    await page.getByTestId('team-card').waitFor({ timeout: 15_000 });
    await row.waitFor();
    expect(text(await row.textContent())).toContain('Waiting to be sent');
    expect(text(await page.getByTestId('offline-banner').textContent())).toContain('You are offline');
    expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/manifest.en.webmanifest');
    expect(await seriousViolations(page), 'axe, English, offline with a queued entry').toEqual([]);
    expect(await entriesOfDistance(token, teamId)).toEqual([]);

    // Back online: the queue is sent, with the key made when "add" was pressed; exactly one entry.
    const posted = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/entry' && request.method() === 'POST');
    await context.setOffline(false);
    expect((await (await posted).allHeaders())['idempotency-key']).toBe(key);
    await row.waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(async () => (await entriesOfDistance(token, teamId)).length, { timeout: 15_000 }).toBe(1);
    // The export's entries were created on 1 May, after the app's clock: the new one is searched for.
    await page.fill('[data-testid="entries-table-search"]', '13.57');
    await expect.poll(async () => page.locator('[data-testid="entries-table-row"]', { hasText: '13.57' }).count(), { timeout: 15_000 }).toBe(1);
    expect(text(await page.getByTestId('offline-banner').textContent())).toBe('');

    // A reload online: still one, on the page and in the API.
    await page.reload();
    await page.getByTestId('entries-table-row').first().waitFor();
    // The export's entries were created on 1 May, after the app's clock: the new one is searched for.
    await page.fill('[data-testid="entries-table-search"]', '13.57');
    await expect.poll(async () => page.locator('[data-testid="entries-table-row"]', { hasText: '13.57' }).count(), { timeout: 15_000 }).toBe(1);
    expect(await entriesOfDistance(token, teamId)).toHaveLength(1);
    expect(await page.evaluate(() => window.localStorage.getItem('sinilill-entry-queue'))).toBe('[]');

    // Logging out deletes the offline copies of the team's data.
    await page.getByTestId('nav-logout').click();
    await expect.poll(async () => page.evaluate(async () => (await caches.keys()).includes('sinilill-api')), { timeout: 10_000 }).toBe(false);
    await context.close();
  });
});

describe('installable', () => {
  test('both manifests are served, parse, name the app in their language and list PNG icons of 192 and 512 px', async () => {
    const names: Record<Lang, string> = { est: '', eng: '' };
    for (const [lang, file] of [['est', 'manifest.et.webmanifest'], ['eng', 'manifest.en.webmanifest']] as const) {
      const response = await fetch(`${stack.baseUrl}/${file}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      const manifest = JSON.parse(await response.text()) as {
        name: string; short_name: string; description: string; lang: string; start_url: string; display: string; theme_color: string;
        icons: { src: string; sizes: string; type: string; purpose?: string }[];
      };
      expect(manifest.lang).toBe(lang === 'est' ? 'et' : 'en');
      expect(manifest.short_name).toBe('Sinilill');
      expect(manifest.description.length).toBeGreaterThan(20);
      expect(manifest.display).toBe('standalone');
      expect(manifest.theme_color).toBe('#006edd');
      names[lang] = manifest.name;
      for (const size of [192, 512]) expect(manifest.icons.some((icon) => icon.sizes === `${size}x${size}`)).toBe(true);
      expect(manifest.icons.some((icon) => icon.purpose === 'maskable')).toBe(true);
      for (const icon of manifest.icons) {
        const image = await fetch(new URL(icon.src, stack.baseUrl));
        expect(image.status).toBe(200);
        const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
        expect(meta.format).toBe('png');
        expect(`${meta.width}x${meta.height}`).toBe(icon.sizes);
      }
    }
    expect(names.est).toContain('heategevuslik');
    expect(names.eng).toContain('charity');

    const worker = await fetch(`${stack.baseUrl}/sw.js`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-type')).toMatch(/javascript/);
    expect(worker.headers.get('cache-control')).toBe('no-cache');
  });
});
