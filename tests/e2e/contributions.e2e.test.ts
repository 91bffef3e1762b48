/**
 * "What this did" in headless Chromium against `npm start` (the 2025 export
 * imported; the simulated clock on 2 May 2025, inside the late-entry window): an imported member
 * adds an entry that takes the team past the end of its next mission; the entry's "what did this
 * do?" dialog on the team page names that mission and the flower it brought, in Estonian and in
 * English, closes on Escape with the focus back on its button, and the account page lists the
 * entry's contribution in both languages. axe finds no serious or critical violation with the dialog open, in
 * either language, nor on the account page's new section.
 */
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { repoRoot } from '@sinilill/config';
import type { EntryAnswer, TeamAnswer } from '@sinilill/contracts';
import { edition2025 } from '@sinilill/domain/seed';
import { launchBrowser } from '../support/browser';
import { e2eKit } from '../support/e2e-kit';
import type { RunningStack } from '../support/stack';
import { sharedStack, E2E_STACKS } from '../support/shared-stack';
import { fixturePeople } from '../support/app';

let stack: RunningStack;
let browser: Browser;
const kit = e2eKit(() => stack, () => browser);

beforeAll(async () => {
  [stack, browser] = await Promise.all([sharedStack(E2E_STACKS.may2), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const text = (s: string | null) => (s ?? '').replace(/\s/g, ' ').trim();

async function api<T>(path: string, token: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(`${stack.baseUrl}/api${path}`, {
    ...init,
    headers: { authorization: token, ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });
  return { status: response.status, body: await response.json().catch(() => null) as T };
}

/** axe-core's serious and critical violations (WCAG 2.0–2.2 A/AA), as tests/e2e/layout.e2e.test.ts runs it. */
async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).setLegacyMode(true);
  if (include) builder = builder.include(include);
  const result = await builder.analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

// A team no other file uses: the files of one clock share a stack (tests/support/shared-stack.ts).
const teamId = 61;
const member = fixturePeople().find((p) => p.teamId === teamId && p.isPaid)!;

describe('"what this did" on the team page and the account page', () => {
  test('an entry that reaches the end of a mission shows it, in Estonian and English, accessibly', async () => {
    const { context, page } = await kit.newPage('est');
    await kit.setPasswordByMail(page, member.email, 'sinilill-parool-1');
    await kit.login(page, member.email, 'sinilill-parool-1');
    await page.waitForURL(/\/team$/);
    const token = await page.evaluate('window.localStorage.getItem("token")') as string;
    // The team page on screen (its edition read, its entries shown) before an entry arrives from elsewhere.
    await page.getByTestId('entries-table-row').first().waitFor();

    // Enough km to pass the next mission's end: 1 km beyond it, so the rounded distance is past too.
    const team = (await api<TeamAnswer>(`/team/${teamId}`, token)).body;
    const next = edition2025.route.missions.find((m) => m.end > team.inLapDistance)!;
    const distance = Math.round((next.end - team.inLapDistance + 1) * 100) / 100;
    const added = await api<EntryAnswer>('/entry', token, {
      method: 'POST', body: JSON.stringify({ distance, entry_type: 'WALK', performed_at: '2025-04-29' }),
    });
    expect(added.status).toBe(200);
    const entryId = added.body.entry.id;

    const open = async () => {
      const button = page.getByTestId(`entry-contribution-${entryId}`);
      await button.waitFor({ timeout: 15_000 });
      await button.click();
      const dialog = page.getByTestId('contribution-dialog');
      await dialog.getByTestId('contribution').waitFor();
      return { button, dialog };
    };

    // Estonian.
    let { button, dialog } = await open();
    expect(text(await dialog.getByRole('heading', { level: 2 }).textContent())).toBe('Mida see sooritus andis');
    expect(text(await dialog.getByTestId('contribution-missions').textContent())).toContain(`Missioon ${next.id}: ${next.name.et}`);
    // When it was added by the (simulated) clock of the command: 2 May 2025.
    expect(text(await dialog.getByTestId('contribution-change').textContent())).toMatch(/^Lisatud 02-mai-2025 /);
    const flowers = (await dialog.getByTestId('contribution-flowers').locator('td').allTextContents()).map(text);
    expect(flowers).toEqual([String(team.blueFlowers), String(team.blueFlowers + next.blueFlowerAmount), `+${next.blueFlowerAmount}`]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(repoRoot, 'test-results', 'contribution-1440-et.png') });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);

    // English, on a phone: the stored language is switched as the flag does, and the page reloaded.
    await page.evaluate(() => window.localStorage.setItem('lang', 'eng'));
    await page.setViewportSize({ width: 360, height: 800 });
    await page.reload();
    ({ button, dialog } = await open());
    expect(await dialog.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await page.screenshot({ path: join(repoRoot, 'test-results', 'contribution-360-en.png') });
    expect(text(await dialog.getByRole('heading', { level: 2 }).textContent())).toBe('What this activity did');
    expect(text(await dialog.getByTestId('contribution-missions').textContent())).toContain(`Mission ${next.id}: ${next.name.en}`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // The account page lists it with the mission reached.
    await page.evaluate(() => window.localStorage.setItem('lang', 'est'));
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${stack.baseUrl}/account`);
    const row = page.locator(`[data-testid="my-contribution-row"][data-entry-id="${entryId}"]`);
    await row.waitFor({ timeout: 15_000 });
    expect(text(await row.textContent())).toContain(`Missioon ${next.id}: ${next.name.et}`);
    expect(await seriousViolations(page, '[data-testid="my-contributions"]')).toEqual([]);
    await page.evaluate(() => window.localStorage.setItem('lang', 'eng'));
    await page.reload();
    await row.waitFor({ timeout: 15_000 });
    expect(text(await row.textContent())).toContain(`Mission ${next.id}: ${next.name.en}`);
    expect(await seriousViolations(page, '[data-testid="my-contributions"]')).toEqual([]);
    await page.screenshot({ path: join(repoRoot, 'test-results', 'contributions-account-1440-en.png'), fullPage: true });
    // On a phone the section fits the screen: no sideways scrolling.
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: join(repoRoot, 'test-results', 'contributions-account-360-en.png'), fullPage: true });
    await context.close();
  });
});
