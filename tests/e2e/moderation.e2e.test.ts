/**
 * Moderation of entries in the browser, against `npm start` at 20 April 2025: a
 * participant logs an implausible walk (70 km, above the 60 km a walk may have) on the team page
 * and sees it "under review"; the administrator filters the console's review queue by team,
 * rejects it with a note; the participant sees it rejected with the note, and the team's km drop
 * by 70. axe finds no serious or critical violation on the review tab and the team page, in
 * Estonian and English.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import type { TeamAnswer } from '@sinilill/contracts';
import { fixturePeople } from '../support/app';
import { launchBrowser } from '../support/browser';
import { e2eKit } from '../support/e2e-kit';
import type { RunningStack } from '../support/stack';
import { E2E_ADMIN, sharedStack, E2E_STACKS } from '../support/shared-stack';

let stack: RunningStack;
let browser: Browser;
const kit = e2eKit(() => stack, () => browser);
const ADMIN = E2E_ADMIN;
const teamId = 1;
const person = fixturePeople().find((p) => p.teamId === teamId)!;
const NOTE = 'Kõndimist 70 km ühe korraga ei saa arvestada';

/** axe-core's serious and critical violations (WCAG 2.0–2.2 A/AA), as layout.e2e.test.ts checks them. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).setLegacyMode(true).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

async function teamKm(token: string): Promise<number> {
  const response = await fetch(`${stack.baseUrl}/api/team/${teamId}`, { headers: { authorization: token } });
  return ((await response.json()) as TeamAnswer).distance;
}

beforeAll(async () => {
  [stack, browser] = await Promise.all([
    sharedStack(E2E_STACKS.april20),
    launchBrowser(),
  ]);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('moderation', () => {
  test('an implausible entry is under review, the admin rejects it with a note, the participant sees why and the km drop', async () => {
    const participant = await kit.newPage('est');
    const page = participant.page;
    await kit.setPasswordByMail(page, person.email, 'ylevaatus-parool-1');
    await kit.login(page, person.email, 'ylevaatus-parool-1');
    await page.waitForURL(/\/team$/);
    await page.getByTestId('team-card').waitFor();
    const token = await page.evaluate('window.localStorage.getItem("token")') as string;
    const before = await teamKm(token);

    await page.getByTestId('add-entry').click();
    const dialog = page.getByTestId('entry-dialog');
    await dialog.waitFor();
    await page.fill('[data-testid="entry-distance"]', '70');
    await page.selectOption('[data-testid="entry-type"]', 'WALK');
    await page.fill('[data-testid="entry-performed-at"]', '2025-04-19');
    await page.getByTestId('entry-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    const review = page.locator('[data-testid^="entry-review-"]');
    // The fixture's entries fill the first pages (10 a page, newest created first): search for the review.
    await page.getByTestId('entries-table-search').fill('Ülevaatusel');
    await expect.poll(async () => review.first().textContent(), { timeout: 10_000 }).toMatch(/^Ülevaatusel: 70,00 km ühe sooritusega, lubatud kuni 60,00 km/);
    expect(await teamKm(token)).toBe(before + 70); // a flagged entry still counts
    const entryId = Number((await review.first().getAttribute('data-testid'))!.replace('entry-review-', ''));
    expect(await seriousViolations(page)).toEqual([]);

    const admin = await kit.newPage('est');
    await kit.login(admin.page, ADMIN.email, ADMIN.password);
    await admin.page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await admin.page.goto(`${stack.baseUrl}/admin?tab=review`);
    await admin.page.getByTestId('review').waitFor();
    await admin.page.getByTestId('review-filter-team').fill(String(teamId));
    await admin.page.getByTestId(`review-row-${entryId}`).waitFor();
    // Other files' flagged entries share the stack: the list shows only this team once the filter applies.
    await expect.poll(() => admin.page.getByTestId('review-table').locator('tbody tr').count(), { timeout: 10_000 }).toBe(1);
    expect(await seriousViolations(admin.page)).toEqual([]);
    await admin.page.getByTestId(`review-select-${entryId}`).check();
    await admin.page.getByTestId('review-note').fill(NOTE);
    await admin.page.getByTestId('review-reject').click();
    await admin.page.getByTestId('alert-success').waitFor();
    await admin.page.getByTestId(`review-row-${entryId}`).waitFor({ state: 'detached' });
    await admin.page.getByTestId('review-filter-status').selectOption('rejected');
    await admin.page.getByTestId(`review-row-${entryId}`).waitFor();
    // The list may render again when its read is refreshed behind the shown one: wait for the text.
    await expect.poll(async () => admin.page.getByTestId(`review-row-${entryId}`).textContent({ timeout: 10_000 }), { timeout: 10_000 }).toContain(NOTE);
    await admin.context.close();

    await page.reload();
    await page.getByTestId('entries-table-search').fill('Tagasi lükatud');
    await expect.poll(async () => page.getByTestId(`entry-review-${entryId}`).textContent(), { timeout: 10_000 }).toBe(`Tagasi lükatud: ${NOTE}`);
    expect(await teamKm(token)).toBe(before);
    await participant.context.close();

    // English: the participant's team page and the admin's tab.
    const en = await kit.newPage('eng');
    await kit.login(en.page, person.email, 'ylevaatus-parool-1');
    await en.page.waitForURL(/\/team$/);
    await en.page.getByTestId('entries-table-search').fill('Rejected');
    await expect.poll(async () => en.page.getByTestId(`entry-review-${entryId}`).textContent(), { timeout: 10_000 }).toBe(`Rejected: ${NOTE}`);
    expect(await seriousViolations(en.page)).toEqual([]);
    await en.context.close();
    const adminEn = await kit.newPage('eng');
    await kit.login(adminEn.page, ADMIN.email, ADMIN.password);
    await adminEn.page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await adminEn.page.goto(`${stack.baseUrl}/admin?tab=review`);
    await adminEn.page.getByTestId('review').waitFor();
    await adminEn.page.getByTestId('review-filter-status').selectOption('rejected');
    await adminEn.page.getByTestId(`review-row-${entryId}`).waitFor();
    await expect.poll(async () => adminEn.page.getByTestId(`review-row-${entryId}`).textContent({ timeout: 10_000 }), { timeout: 10_000 }).toContain('Rejected');
    expect(await seriousViolations(adminEn.page)).toEqual([]);
    await adminEn.context.close();
  }, 90_000);
});
