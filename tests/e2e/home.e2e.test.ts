/**
 * A visitor opens the home page of a freshly started app (`npm start` on an empty data folder,
 * which imports the 2025 export on first start) and reads the four numbers of spec §1/§2.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { repoRoot } from '@sinilill/config';
import type { StatsAnswer } from '@sinilill/contracts';
import { edition2025 } from '@sinilill/domain/seed';
import { launchBrowser } from '../support/browser';
import type { RunningStack } from '../support/stack';
import { E2E_STACKS, ownStack } from '../support/shared-stack';

let stack: RunningStack;
let browser: Browser;
const artifacts = join(repoRoot, 'test-results');

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  // A stack of its own, not a shared one: the figures asserted here are the whole site's, the
  // import's alone, which the other files' teams and payments would change.
  [stack, browser] = await Promise.all([ownStack(E2E_STACKS.pristine), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const text = (s: string) => s.replace(/\s/g, ' ').trim();

test('the home page shows 1 005 participants, 121 teams, 196 445 km and 2 491 blue flowers', async () => {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(stack.baseUrl);
  await expect.poll(async () => text(await page.getByTestId('stat-participants').textContent() ?? ''), { timeout: 20_000 }).toBe('1 005');
  expect(text(await page.getByTestId('stat-teams').textContent() ?? '')).toBe('121');
  expect(text(await page.getByTestId('stat-distance').textContent() ?? '')).toBe('196 445');
  expect(text(await page.getByTestId('stat-flowers').textContent() ?? '')).toBe('2 491');
  expect(await page.locator('html').getAttribute('lang')).toBe('et');
  await page.screenshot({ path: join(artifacts, 'home-1440-et.png'), fullPage: true });
  await page.close();
});

test('the API answers the same figures as the page (spec §7 GET /api/stats)', async () => {
  const stats = await (await fetch(`${stack.baseUrl}/api/stats`)).json() as {
    teams: unknown[]; totalParticipants: number; totalDistance: number; totalBlueFlowers: number;
  };
  expect(stats.teams).toHaveLength(121);
  expect([stats.totalParticipants, stats.totalDistance, stats.totalBlueFlowers]).toEqual([1005, 196445, 2491]);
});

test('top teams follow the three sort orders of spec §2 (per member, flowers, today per member)', async () => {
  const stats = await (await fetch(`${stack.baseUrl}/api/stats`)).json() as StatsAnswer;
  const best = (figure: (t: StatsAnswer['teams'][number]) => number) =>
    [...stats.teams].sort((a, b) => figure(b) - figure(a) || b.distance - a.distance)[0]!.team.team_name;
  const expected = {
    0: best((t) => t.distance / t.participants),
    1: best((t) => t.blueFlowers),
    2: best((t) => t.dailyDistance / t.participants),
  };
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(stack.baseUrl);
  await page.getByTestId('top-team').first().waitFor();
  for (const order of [1, 2, 0] as const) {
    await page.getByTestId(`sort-${order}`).click();
    expect(await page.getByTestId(`sort-${order}`).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('top-team').first().locator('h3').textContent()).toBe(expected[order]);
  }
  expect(await page.getByTestId('top-team').count()).toBe(8);
  await page.close();
});

test('clicking a mission opens the close-up with exactly the teams inside it (spec §2, §4)', async () => {
  const stats = await (await fetch(`${stack.baseUrl}/api/stats`)).json() as StatsAnswer;
  const inside = (m: { start: number; end: number }) => stats.teams.filter((t) => t.inLapDistance >= m.start && t.inLapDistance < m.end);
  const busiest = [...edition2025.route.missions].sort((a, b) => inside(b).length - inside(a).length)[0]!;
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(stack.baseUrl);
  await expect.poll(() => page.getByTestId('team-dot').count(), { timeout: 20_000 }).toBe(121);
  const segment = page.getByTestId(`mission-${busiest.id}`);
  await segment.click();
  expect(await segment.getAttribute('aria-expanded')).toBe('true');
  await page.getByTestId('mission-closeup').waitFor();
  expect(await page.getByTestId('mission-closeup-team').count()).toBe(inside(busiest).length);
  const names = await page.getByTestId('mission-closeup-team').allTextContents();
  for (const team of inside(busiest)) expect(names.some((n) => n.includes(team.team.team_name))).toBe(true);
  await page.screenshot({ path: join(artifacts, 'home-closeup-1440-et.png'), fullPage: true });
  await segment.click();
  expect(await segment.getAttribute('aria-expanded')).toBe('false');
  await page.close();
});

test('the flag switches to English, stores lang=eng and survives a reload (spec §2, §4)', async () => {
  const context = await browser.newContext({ viewport: { width: 360, height: 780 } });
  const page = await context.newPage();
  await page.goto(stack.baseUrl);
  await page.getByTestId('stat-participants').waitFor();
  const estonian = await page.locator('main').textContent();
  await Promise.all([page.waitForEvent('load'), page.getByTestId('lang-toggle').click()]);
  await page.getByTestId('stat-participants').waitFor();
  expect(await page.evaluate('window.localStorage.getItem("lang")')).toBe('eng');
  expect(await page.locator('html').getAttribute('lang')).toBe('en');
  expect(await page.locator('main').textContent()).not.toBe(estonian);
  expect(text(await page.getByTestId('stat-distance').textContent() ?? '')).toBe('196 445');
  await page.screenshot({ path: join(artifacts, 'home-360-en.png'), fullPage: true });
  await page.reload();
  expect(await page.locator('html').getAttribute('lang')).toBe('en');
  await context.close();
});
