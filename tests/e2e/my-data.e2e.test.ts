/**
 * "My data" in the browser, against `npm start` with the 2025 export imported
 * (the simulated clock on 2 May 2025, inside the late-entry window): a participant downloads their
 * data as JSON and as CSV from the account page (Playwright download events; the files hold
 * their data and not a teammate's), erases their account with a wrong and then the right
 * password, and is logged out with a message; a teammate's team page then shows their km as a
 * deleted person's, without their name. axe-core finds no serious or critical violation on the
 * account page's "My data" section or in the erasure dialog, in Estonian and in English.
 */
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { MyDataExport, TeamAnswer } from '@sinilill/contracts';
import { launchBrowser } from '../support/browser';
import { e2eKit, message, type Lang } from '../support/e2e-kit';
import type { RunningStack } from '../support/stack';
import { sharedStack, E2E_STACKS } from '../support/shared-stack';
import { fixturePeople } from '../support/app';

let stack: RunningStack;
let browser: Browser;
const kit = e2eKit(() => stack, () => browser);

beforeAll(async () => {
  [stack, browser] = await Promise.all([sharedStack(E2E_STACKS.may2), launchBrowser()]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

// Two paid members of one team (paid people land on /team after logging in), of a team no other
// file uses: the files of one clock share a stack (tests/support/shared-stack.ts), and one
// member leaves here.
const people = fixturePeople();
const teamId = 62;
const [leaver, stayer] = people.filter((p) => p.teamId === teamId && p.isPaid);

async function api<T>(path: string, token: string | null, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(`${stack.baseUrl}/api${path}`, {
    ...init,
    headers: { ...(token ? { authorization: token } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });
  return { status: response.status, body: await response.json().catch(() => null) as T };
}

/** Sets the person's first password by mail, logs in and opens the account page. */
async function signIn(email: string, password: string, lang: Lang) {
  const { context, page } = await kit.newPage(lang, 1440);
  await kit.setPasswordByMail(page, email, password);
  await kit.login(page, email, password);
  await page.waitForURL(/\/team$/);
  const token = await page.evaluate('window.localStorage.getItem("token")') as string;
  await page.goto(`${stack.baseUrl}/account`);
  await page.getByTestId('my-data').waitFor();
  return { context, page, token };
}

/** axe-core's serious and critical violations inside `selector` (WCAG 2.0–2.2 A/AA), as in layout.e2e.test.ts. */
async function seriousViolations(page: Page, selector: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include(selector).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).setLegacyMode(true).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** The "My data" section and the erasure dialog pass axe; Escape closes the dialog and the focus goes back. */
async function checkAccessibility(page: Page): Promise<void> {
  expect(await seriousViolations(page, '[data-testid="my-data"]')).toEqual([]);
  await page.getByTestId('my-data-erase').click();
  const dialog = page.getByTestId('erase-dialog');
  await dialog.getByRole('heading').waitFor();
  expect(await seriousViolations(page, '[data-testid="erase-dialog"]')).toEqual([]);
  // Labelled by its heading, the password field by its label; Cancel has the focus first.
  expect(await dialog.getAttribute('aria-labelledby')).toBeTruthy();
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('erase-dialog-cancel');
  await page.keyboard.press('Escape');
  await dialog.getByRole('heading').waitFor({ state: 'hidden' });
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('my-data-erase');
}

describe('my data', () => {
  test('download both files, erase with a wrong and then the right password; the teammate sees the km without the name', { timeout: 120_000 }, async () => {
    const { context, page, token } = await signIn(leaver!.email, 'minu-andmed-1', 'est');
    await checkAccessibility(page);

    // A last entry, the newest of the team: the teammate's entries table shows it first.
    const added = await api<{ entry: { id: number } }>('/entry', token, {
      method: 'POST', body: JSON.stringify({ distance: 12.34, entry_type: 'WALK', performed_at: '2025-04-30' }),
    });
    expect(added.status).toBe(200);

    // JSON: the download event, its name, and the leaver's data only.
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('my-data-download-json').click()]);
    expect(json.suggestedFilename()).toMatch(/^sinilill-minu-andmed-2025-05-02\.json$/);
    const data = JSON.parse(await readFile((await json.path())!, 'utf8')) as MyDataExport;
    expect(data.account.email).toBe(leaver!.email);
    expect(data.participant).toMatchObject({ id: leaver!.id, full_name: leaver!.fullName, team: { id: teamId } });
    expect(data.entries.map((e) => e.id)).toContain(added.body.entry.id);
    expect(data.events.length).toBeGreaterThan(2);
    expect(JSON.stringify(data)).not.toContain(stayer!.email);

    // CSV: parses, one `section` per row, the same events.
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('my-data-download-csv').click()]);
    expect(csv.suggestedFilename()).toMatch(/^sinilill-minu-andmed-2025-05-02\.csv$/);
    const rows = parse(await readFile((await csv.path())!, 'utf8'), { columns: true }) as { section: string; email: string }[];
    expect(rows.filter((r) => r.section === 'account').map((r) => r.email)).toEqual([leaver!.email]);
    expect(rows.filter((r) => r.section === 'event')).toHaveLength(data.events.length);

    const before = (await api<TeamAnswer>(`/team/${teamId}`, token)).body.distance;

    // A wrong password: refused in the dialog, still logged in.
    await page.getByTestId('my-data-erase').click();
    const dialog = page.getByTestId('erase-dialog');
    await page.fill('[data-testid="erase-dialog"] [name="password"]', 'vale-parool-9');
    await page.getByTestId('erase-dialog-yes').click();
    await expect.poll(async () => (await dialog.getByTestId('alert-error').textContent()) ?? '').toContain(message('est', 'INVALID_PASSWORD'));
    expect(await page.evaluate('window.localStorage.getItem("token")')).toBeTruthy();

    // The right one: logged out, with the message.
    await page.fill('[data-testid="erase-dialog"] [name="password"]', 'minu-andmed-1');
    await page.getByTestId('erase-dialog-yes').click();
    await page.getByTestId('account-erased').waitFor();
    expect(await page.getByTestId('account-erased').textContent()).toContain('kustutatud');
    expect(await page.evaluate('window.localStorage.getItem("token")')).toBeNull();
    expect((await api(`/me/data`, token)).status).toBe(401);
    await context.close();

    // The teammate, in English: the section and dialog pass axe; the team keeps the km, the name is gone.
    const mate = await signIn(stayer!.email, 'minu-andmed-2', 'eng');
    await checkAccessibility(mate.page);
    expect((await api<TeamAnswer>(`/team/${teamId}`, mate.token)).body.distance).toBe(before);
    await mate.page.goto(`${stack.baseUrl}/team`);
    await mate.page.getByTestId('entries-table').waitFor();
    const first = mate.page.getByTestId('entries-table-row').first();
    await expect.poll(async () => (await first.textContent()) ?? '').toContain('Deleted person');
    expect(await first.textContent()).toContain('12.34');
    expect(await mate.page.content()).not.toContain(leaver!.fullName);
    await mate.context.close();
  });
});
