/**
 * The money raised in view, in headless Chromium against `npm start` with the
 * sandbox payment provider (the 2025 import's paid marks count the fees they assume, but a new
 * team starts from nothing), so the fee is paid through the sandbox as payments.e2e.test.ts does:
 *
 * - Estonian: a new team's page, open while its captain pays in another tab, shows the 15 EUR fee
 *   without a reload (the page's live stream); the home page shows the total beside the distance
 *   and each top team's money, the participants table the team's, all as GET /api/stats says.
 * - English, on a 360 px phone: the same figures in English format (the total within its box),
 *   and the team page's after logging in again.
 * - axe finds no serious or critical violation in the changed parts, in either language.
 */
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { StatsAnswer } from '@sinilill/contracts';
import { launchBrowser } from '../support/browser';
import { e2eKit } from '../support/e2e-kit';
import type { RunningStack } from '../support/stack';
import { sharedStack, E2E_STACKS } from '../support/shared-stack';

let stack: RunningStack;
let browser: Browser;
const kit = e2eKit(() => stack, () => browser);

beforeAll(async () => {
  [stack, browser] = await Promise.all([sharedStack(E2E_STACKS.april30), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const text = (s: string | null) => (s ?? '').replace(/\s/g, ' ').trim();
const spaced = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
/** EUR cents as the page writes them, worked out here independently of the client's formatter. */
const euros = (cents: number, lang: 'est' | 'eng') => {
  const whole = spaced(Math.floor(cents / 100));
  const hundredths = String(cents % 100).padStart(2, '0');
  return lang === 'est' ? `${whole},${hundredths} €` : `€${whole}.${hundredths}`;
};

async function stats(): Promise<StatsAnswer> {
  const response = await fetch(`${stack.baseUrl}/api/stats`);
  expect(response.status).toBe(200);
  return await response.json() as StatsAnswer;
}

/** axe (WCAG 2.2 AA tags, as layout.e2e.test.ts) on the elements `selectors` match: serious or critical findings. */
async function seriousViolations(page: Page, selectors: string[]): Promise<string[]> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).setLegacyMode(true);
  for (const selector of selectors) builder = builder.include(selector);
  const result = await builder.analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** The home page's figures and top team cards against GET /api/stats, in `lang`. */
async function checkHome(page: Page, lang: 'est' | 'eng'): Promise<void> {
  await page.goto(`${stack.baseUrl}/`);
  const answer = await stats();
  expect(answer.raised_cents).toBeGreaterThanOrEqual(1500);
  await expect.poll(async () => text(await page.getByTestId('stat-raised').textContent()), { timeout: 20_000 }).toBe(euros(answer.raised_cents!, lang));
  // Beside the distance: the box right after it.
  const order = await page.locator('[data-testid^="stat-"]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-testid')));
  expect(order.indexOf('stat-raised')).toBe(order.indexOf('stat-distance') + 1);
  const cards = page.getByTestId('top-team');
  expect(await cards.count()).toBeGreaterThan(0);
  const first = cards.first();
  const name = text(await first.locator('h3').textContent());
  const team = answer.teams.find((t) => t.team.team_name === name)!;
  expect(text(await first.getByTestId('top-team-raised').textContent())).toContain(euros(team.raised_cents ?? 0, lang));
  expect(await seriousViolations(page, ['section[aria-labelledby="stats-heading"]', '[data-testid="top-team"]'])).toEqual([]);
}

/** The participants table's row of `teamName` shows `cents`. */
async function checkParticipants(page: Page, teamName: string, cents: number, lang: 'est' | 'eng'): Promise<void> {
  await page.goto(`${stack.baseUrl}/participants`);
  await page.fill('[data-testid="teams-table-search"]', teamName);
  const row = page.getByTestId('teams-table-row').filter({ hasText: teamName }).first();
  await expect.poll(async () => text(await row.getByTestId('team-raised').textContent()), { timeout: 10_000 }).toBe(euros(cents, lang));
  expect(await seriousViolations(page, ['[data-testid="teams-table"]'])).toEqual([]);
}

const captain = { email: 'raha@example.ee', fullName: 'Rita Raha', password: 'raha-parool-123', teamName: 'Raha Rändurid' };

describe('the money raised on the home, participants and team pages', () => {
  test('in Estonian: the team page shows a payment live; home and the table show the amounts', async () => {
    const { context, page } = await kit.newPage('est', 1440);
    await kit.register(page, { ...captain, birthYear: '1985', type: 'REGISTER_TEAM' });
    await page.waitForURL(/\/success$/);
    await kit.confirmFromMail(page, captain.email);
    await kit.login(page, captain.email, captain.password);
    await page.waitForURL(/\/pay$/);

    // The team page, open in another tab of the same session, before the payment.
    const teamPage = await context.newPage();
    await teamPage.goto(`${stack.baseUrl}/team`);
    await expect.poll(async () => text(await teamPage.getByTestId('team-raised').textContent()), { timeout: 20_000 }).toBe(`Tiim on kogunud ${euros(0, 'est')}`);

    await page.getByTestId('pay-method').first().click();
    await page.getByTestId('pay-amount').fill('15.00');
    await page.getByTestId('pay-submit').click();
    await page.getByTestId('sandbox-succeed').click();
    await page.waitForURL(/\/payment\/success/);

    // No reload: the live stream tells the page, which refetches.
    await expect.poll(async () => text(await teamPage.getByTestId('team-raised').textContent()), { timeout: 15_000 }).toBe(`Tiim on kogunud ${euros(1500, 'est')}`);
    expect(await seriousViolations(teamPage, ['[data-testid="team-card"]'])).toEqual([]);

    await checkHome(page, 'est');
    await checkParticipants(page, captain.teamName, 1500, 'est');
    await context.close();
  });

  test('in English, on a phone: the same amounts in English format, the total within its box', async () => {
    const { context, page } = await kit.newPage('eng', 360);
    await checkHome(page, 'eng');
    const fits = await page.getByTestId('stat-raised').evaluate((node) => node.scrollWidth <= node.clientWidth);
    expect(fits).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    await checkParticipants(page, captain.teamName, 1500, 'eng');
    await kit.login(page, captain.email, captain.password);
    await page.waitForURL(/\/team$/);
    await expect.poll(async () => text(await page.getByTestId('team-raised').textContent()), { timeout: 20_000 }).toBe(`The team has raised ${euros(1500, 'eng')}`);
    expect(await seriousViolations(page, ['[data-testid="team-card"]'])).toEqual([]);
    await context.close();
  });
});
