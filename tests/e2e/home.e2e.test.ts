/**
 * A visitor opens the home page of a freshly started app (`npm start` on an empty data folder,
 * which imports the 2025 export on first start) and reads the four numbers of spec §1/§2.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { repoRoot } from '@sinilill/config';
import { launchBrowser } from '../support/browser';
import { startStack, type RunningStack } from '../support/stack';

let stack: RunningStack;
let browser: Browser;
const artifacts = join(repoRoot, 'test-results');

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
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
