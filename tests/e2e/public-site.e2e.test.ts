/**
 * The public site as visitors see it, in headless Chromium against `npm start` with the
 * 2025 export: every route of the spec's route table (§2) in Estonian and English, at 360 px and
 * at 1440 px, with its key content and no horizontal scroll; the screenshots are kept in
 * test-results/ as artifacts, not compared. axe-core runs on every route (logged out and in, WCAG
 * 2.2 AA) in layout.e2e.test.ts, not twice. Then the home page against
 * /api/stats, the participants table's sorting and paging, and the route map with every request
 * outside the app refused (no tile server, no API key).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { repoRoot } from '@sinilill/config';
import type { StatsAnswer } from '@sinilill/contracts';
import { launchBrowser } from '../support/browser';
import { e2eKit, type Lang } from '../support/e2e-kit';
import type { RunningStack } from '../support/stack';
import { sharedStack, E2E_STACKS } from '../support/shared-stack';

let stack: RunningStack;
let browser: Browser;
let stats: StatsAnswer;
const artifacts = join(repoRoot, 'test-results', 'public-site');
const kit = e2eKit(() => stack, () => browser);

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  // 10 May 2025: after the prize draw (5 May 17:00), so the home page's phase is 'afterDraw';
  // nothing else here depends on the day, so the file shares certificates.e2e's stack.
  [stack, browser] = await Promise.all([sharedStack(E2E_STACKS.may10), launchBrowser()]);
  stats = await (await fetch(`${stack.baseUrl}/api/stats`)).json() as StatsAnswer;
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const text = (s: string | null) => (s ?? '').replace(/\s/g, ' ').trim();
const spaced = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/** A route of spec §2's table, as a visitor (logged out) opens it, and what must be on it. */
interface RouteCase {
  path: string;
  name: string;
  /** Waits for the route's key content and checks it. */
  check: (page: Page, lang: Lang) => Promise<void>;
}

const visible = (testId: string) => async (page: Page) => { await page.getByTestId(testId).first().waitFor(); };

const routes: RouteCase[] = [
  { path: '/', name: 'home', check: async (page) => {
    await expect.poll(async () => text(await page.getByTestId('stat-participants').textContent()), { timeout: 20_000 }).toBe(spaced(stats.totalParticipants));
    await page.getByTestId('route-map-svg').waitFor();
    await page.getByTestId('missing-flowers').waitFor();
  } },
  { path: '/register', name: 'register', check: visible('step-user-information') },
  { path: '/login', name: 'login', check: visible('login-submit') },
  { path: '/login?type=forgot', name: 'login-forgot', check: visible('forgot-submit') },
  { path: '/passwordreset/not-a-real-token/00000000-0000-0000-0000-000000000000', name: 'password-reset', check: visible('reset-submit') },
  { path: '/confirm/account/not-a-real-token/00000000-0000-0000-0000-000000000000', name: 'confirm-account', check: visible('confirm-submit') },
  { path: '/participants', name: 'participants', check: async (page) => {
    await expect.poll(async () => page.getByTestId('teams-table-row').count(), { timeout: 20_000 }).toBe(10);
  } },
  { path: '/history', name: 'history', check: async (page) => {
    for (const year of [2021, 2022, 2023, 2024]) await page.getByTestId(`history-year-${year}`).waitFor();
    expect(text(await page.getByTestId('history-year-2023').textContent())).toMatch(/201[\s\u00a0,]?881/);
  } },
  { path: '/guide', name: 'guide', check: async (page) => {
    await page.locator('[data-testid^="guide-section-"]').first().waitFor();
    expect(await page.locator('[data-testid^="guide-section-"]').count()).toBeGreaterThanOrEqual(8);
  } },
  { path: '/sponsor', name: 'sponsor', check: async (page) => {
    await page.getByTestId('sponsor-card').first().waitFor();
    expect(await page.getByTestId('sponsor-card').count()).toBe(7);
  } },
  { path: '/team', name: 'team', check: visible('login-required') },
  { path: '/admin', name: 'admin', check: visible('admin-forbidden') },
  { path: '/success', name: 'success', check: visible('registration-success') },
  { path: '/payment/success?amount=15&code=SL-2025-0001', name: 'payment-success', check: visible('login-required') },
  { path: '/payment/failed?code=SL-2025-0002', name: 'payment-failed', check: visible('login-required') },
  { path: '/account', name: 'account', check: visible('login-required') },
  { path: '/news', name: 'news', check: async (page) => {
    await page.locator('[data-testid="news-story"], [data-testid="news-empty"]').first().waitFor();
  } },
  { path: '/pay', name: 'pay', check: visible('login-required') },
];

for (const lang of ['est', 'eng'] as const) {
  for (const width of [360, 1440]) {
    describe(`every route, ${lang}, ${width} px`, () => {
      for (const route of routes) {
        // Concurrent (vitest's maxConcurrency at a time): each test is one page load in a
        // context of its own, mostly waiting on the stack, not on the machine's two cores.
        test.concurrent(`${route.path}: key content, no horizontal scroll`, async () => {
          const { context, page } = await kit.newPage(lang, width);
          try {
            await page.goto(`${stack.baseUrl}${route.path}`);
            await route.check(page, lang);
            expect(await page.locator('html').getAttribute('lang')).toBe(lang === 'est' ? 'et' : 'en');
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
            expect(overflow, 'page wider than the viewport').toBeLessThanOrEqual(0);
            await page.screenshot({ path: join(artifacts, `${route.name}-${width}-${lang}.png`), fullPage: true });
          } finally {
            await context.close();
          }
        });
      }
    });
  }
}

describe('the home page on 10 May: the edition has ended and the prizes are drawn', () => {
  const AFTER = {
    est: { heading: 'Sinilill 2025 on lõppenud', text: 'Auhinnad on välja loositud' },
    eng: { heading: 'Sinilill 2025 has ended', text: 'The prizes have been drawn' },
  } as const;
  for (const lang of ['est', 'eng'] as const) {
    test(`${lang}: "has ended", the draw in the past, no invitation to add entries`, async () => {
      const { context, page } = await kit.newPage(lang);
      await page.goto(stack.baseUrl);
      const notice = page.getByTestId('edition-phase');
      await notice.waitFor();
      expect(await notice.getAttribute('data-phase')).toBe('afterDraw');
      const shown = text(await notice.textContent());
      expect(shown).toContain(AFTER[lang].heading);
      expect(shown).toContain(AFTER[lang].text);
      expect(await page.getByTestId('phase-entries-open').count()).toBe(0);
      await context.close();
    });
  }
});

describe('the home page agrees with /api/stats', () => {
  test('the four boxes, the first top team and the progress bar', async () => {
    const { context, page } = await kit.newPage('eng', 1440);
    await page.goto(stack.baseUrl);
    await expect.poll(async () => text(await page.getByTestId('stat-participants').textContent()), { timeout: 20_000 }).toBe(spaced(stats.totalParticipants));
    expect(text(await page.getByTestId('stat-teams').textContent())).toBe(spaced(stats.teams.length));
    expect(text(await page.getByTestId('stat-distance').textContent())).toBe(spaced(stats.totalDistance));
    expect(text(await page.getByTestId('stat-flowers').textContent())).toBe(spaced(stats.totalBlueFlowers));
    const best = [...stats.teams].sort((a, b) => b.distance / b.participants - a.distance / a.participants)[0]!;
    expect(text(await page.getByTestId('top-team').first().textContent())).toContain(best.team.team_name);
    expect(await page.getByTestId('team-dot').count()).toBe(stats.teams.length);
    await context.close();
  });
});

describe('the participants table sorts and pages as spec §2 says', () => {
  test('distance descending by default, 10 rows, at most 7 page buttons, each value column sorts', async () => {
    const { context, page } = await kit.newPage('est', 1440);
    await page.goto(`${stack.baseUrl}/participants`);
    await expect.poll(async () => page.getByTestId('teams-table-row').count(), { timeout: 20_000 }).toBe(10);
    const byDistance = [...stats.teams].sort((a, b) => b.distance - a.distance);
    const firstRow = page.getByTestId('teams-table-row').first();
    expect(text(await firstRow.textContent())).toContain(byDistance[0]!.team.team_name);
    expect(await firstRow.getAttribute('data-row-id')).toBe(String(byDistance[0]!.team.id));
    expect(await page.locator('[data-testid^="teams-table-page-"]').count()).toBeLessThanOrEqual(7);

    // Page 2 (read from the server) starts with the 11th team by distance (a team
    // of the same distance when there is a tie: the server breaks ties by id), and the row index
    // continues (11).
    const rowIds = () => page.getByTestId('teams-table-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-row-id')));
    const pageOne = await rowIds();
    await page.getByTestId('teams-table-next').click();
    await expect.poll(async () => (await rowIds()).some((id) => pageOne.includes(id))).toBe(false);
    const eleventh = Number(await page.getByTestId('teams-table-row').first().getAttribute('data-row-id'));
    expect(stats.teams.find((t) => t.team.id === eleventh)!.distance).toBe(byDistance[10]!.distance);
    expect(text(await page.getByTestId('teams-table-row-number').first().textContent())).toBe('11');

    const sorts: [string, (t: StatsAnswer['teams'][number]) => number][] = [
      ['blueFlowers', (t) => t.blueFlowers], ['participants', (t) => t.participants], ['distance', (t) => t.distance],
    ];
    for (const [column, value] of sorts) {
      await page.getByTestId(`teams-table-sort-${column}`).click();
      const best = Math.max(...stats.teams.map(value));
      // The server's answer comes after the click: wait for the sorted page.
      await expect.poll(async () => {
        const id = Number(await page.getByTestId('teams-table-row').first().getAttribute('data-row-id'));
        return value(stats.teams.find((t) => t.team.id === id)!);
      }, { message: column }).toBe(best);
    }
    // The search narrows to one team; its row expands to the description.
    const described = stats.teams.find((t) => t.team.description.length > 0)!;
    await page.fill('[data-testid="teams-table-search"]', described.team.team_name);
    await expect.poll(async () => (await page.getByTestId('teams-table-row').allTextContents()).every((row) => row.includes(described.team.team_name))).toBe(true);
    const row = page.getByTestId('teams-table-row').filter({ hasText: described.team.team_name }).first();
    const id = await row.getAttribute('data-row-id');
    await page.getByTestId(`teams-table-expand-${id}`).click();
    expect(text(await page.getByTestId(`teams-table-detail-${id}`).textContent())).toContain(text(described.team.description).slice(0, 40));
    await context.close();
  });
});

describe('the route map works offline', () => {
  test('with every request outside the app refused, the map draws its countries and 24 missions', async () => {
    const { context, page } = await kit.newPage('est', 1440);
    const origin = new URL(stack.baseUrl).origin;
    const outside: string[] = [];
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      outside.push(url);
      return route.abort('internetdisconnected');
    });
    await page.goto(stack.baseUrl);
    await page.getByTestId('route-map-svg').waitFor({ timeout: 20_000 });
    expect(await page.locator('[data-testid="route-map-svg"] path').count()).toBeGreaterThan(10);
    expect(await page.locator('[data-testid^="route-map-mission-"]').count()).toBe(24);
    await page.getByTestId('route-map-mission-1').click();
    await page.getByTestId('route-map-details').waitFor();
    await page.getByTestId('route-map-zoom-in').click();
    await page.screenshot({ path: join(artifacts, 'route-map-offline.png') });
    expect(outside).toEqual([]);
    await context.close();
  });
});
