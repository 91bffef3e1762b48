/**
 * The admin console's editions tab in headless Chromium against `npm start` (the 2025 export
 * imported as edition 2025, the app's clock on 15 June 2025 in Tallinn: after 2025's late-entry
 * deadline, so its results are final and it may be closed). The administrator plans the next
 * edition from the latest one; a route mission without its English name is refused by the server
 * with EDITION_MISSION_NAME_MISSING and the field `route.missions[3].name.en`, shown in Estonian
 * and, after the flag, in English; fixed, the draft is saved and listed. A route uploaded as JSON
 * is checked by the server the same way. Closing 2025 archives it, and its form is then read-only.
 *
 * Then the launcher's demo on 10 March 2026 (2025 archived, 2026 taking registrations): a 2025
 * participant finds "Join Sinilill 2026" on the account page, keeps last year's team, invites
 * last year's members and goes on to pay; a teammate joins in English with the new join code.
 */
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { fixturePeople } from '../support/app';
import { e2eKit, message, type Lang } from '../support/e2e-kit';
import type { RunningStack } from '../support/stack';
import { E2E_ADMIN, sharedStack, E2E_STACKS } from '../support/shared-stack';

let stack: RunningStack;
let browser: Browser;
const kit = e2eKit(() => stack, () => browser);

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** axe-core's serious and critical violations (WCAG 2.0–2.2 A/AA) inside `include`, as layout.e2e.test.ts runs it. */
async function seriousViolations(page: Page, include: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include(include).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).setLegacyMode(true).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** A logged-in administrator's page on the editions tab, in `lang`. */
async function editionsTab(lang: Lang): Promise<Page> {
  const { page } = await kit.newPage(lang);
  await kit.login(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.waitForURL((url) => url.pathname !== '/login');
  await page.goto(`${stack.baseUrl}/admin?tab=editions`);
  await page.getByTestId('edition-list').waitFor();
  return page;
}

/** The latest edition's year in the list. */
async function latestYear(page: Page): Promise<number> {
  const years = await page.getByTestId('edition-row').evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-year'))));
  return Math.max(...years);
}

/** An edition as GET /api/admin/editions has it, once its read model has caught up (≤ 15 s). */
async function savedEdition(page: Page, year: number): Promise<SavedEdition> {
  for (const deadline = Date.now() + 15_000; ; ) {
    const found = await page.evaluate(async (wanted) => {
      const answer = await fetch('/api/admin/editions', { headers: { authorization: window.localStorage.getItem('token') ?? '' } });
      const { editions } = (await answer.json()) as { editions: { year: number }[] };
      return editions.find((e) => e.year === wanted) ?? null;
    }, year);
    if (found) return found as SavedEdition;
    if (Date.now() > deadline) throw new Error(`edition ${year} is not listed by GET /api/admin/editions`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

interface SavedEdition {
  year: number;
  edition: { fees: { adultCents: number }; route: { lapLength: number; missions: { name: { et: string; en: string } }[] } };
}

/** The refusal shown above the form: its code, field and text. */
async function shownProblem(page: Page): Promise<{ code: string | null; field: string | null; text: string }> {
  const item = page.getByTestId('edition-problem').first();
  await item.waitFor();
  return { code: await item.getAttribute('data-code'), field: await item.getAttribute('data-field'), text: (await item.textContent()) ?? '' };
}

describe('the editions tab', () => {
  let planned = 0;
  beforeAll(async () => {
    stack = await sharedStack(E2E_STACKS.june15);
  });

  test('plans the next edition: a mission without its English name is refused in both languages, then saved', async () => {
    const page = await editionsTab('est');
    const latest = await latestYear(page);
    planned = latest + 1;
    await page.getByTestId('edition-plan-next').click();
    expect(await page.getByTestId('edition-field-year').inputValue()).toBe(String(planned));
    expect(await page.getByTestId('edition-field-startDate').inputValue()).toMatch(new RegExp(`^${planned}-`));
    await page.getByTestId('edition-mission-3-nameEn').fill('');
    await page.getByTestId('edition-save').click();
    const estonian = await shownProblem(page);
    expect(estonian).toMatchObject({ code: 'EDITION_MISSION_NAME_MISSING', field: 'route.missions[3].name.en' });
    expect(estonian.text).toContain(message('est', 'EDITION_MISSION_NAME_MISSING'));
    expect(estonian.text).toContain('route.missions[3].name.en');
    expect(await page.getByTestId('edition-mission-3-nameEn').getAttribute('aria-invalid')).toBe('true');
    expect(await seriousViolations(page, '[data-testid="admin-editions"]')).toEqual([]);

    // The flag reloads the page in English: the same mistake, told in English.
    await Promise.all([page.waitForEvent('load'), page.getByTestId('lang-toggle').click()]);
    await page.getByTestId('edition-list').waitFor();
    await page.getByTestId('edition-plan-next').click();
    await page.getByTestId('edition-mission-3-nameEn').fill('');
    await page.getByTestId('edition-save').click();
    const english = await shownProblem(page);
    expect(english).toMatchObject({ code: 'EDITION_MISSION_NAME_MISSING', field: 'route.missions[3].name.en' });
    expect(english.text).toContain(message('eng', 'EDITION_MISSION_NAME_MISSING'));
    expect(message('eng', 'EDITION_MISSION_NAME_MISSING')).not.toBe(message('est', 'EDITION_MISSION_NAME_MISSING'));

    // Fixed, with an amount typed the English way: saved as a draft.
    await page.getByTestId('edition-mission-3-nameEn').fill('Afghanistan');
    await page.getByTestId('edition-field-fees.adultCents').fill('25.50');
    await page.getByTestId('edition-save').click();
    await page.getByTestId('edition-saved').waitFor();
    const row = page.locator(`[data-testid="edition-row"][data-year="${planned}"]`);
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('planned');

    const saved = await savedEdition(page, planned);
    expect(saved.edition.fees.adultCents).toBe(2550);
    expect(saved.edition.route.missions[3]!.name.en).toBe('Afghanistan');
    await page.context().close();

    // Public answers never show a draft.
    const editions = await (await fetch(`${stack.baseUrl}/api/editions`)).json() as { current: { year: number } | null; next: { year: number } | null };
    expect(editions.next?.year ?? null).not.toBe(planned);
  });

  test('a route uploaded as JSON is checked by the server, and the field it breaks is named', async () => {
    const page = await editionsTab('est');
    await page.locator(`[data-testid="edition-row"][data-year="${planned}"] [data-testid="edition-edit"]`).click();
    const { route } = (await savedEdition(page, planned)).edition;
    route.missions[1]!.name = { et: '', en: route.missions[1]!.name.en };
    await page.getByTestId('edition-upload').setInputFiles({ name: 'route.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(route)) });
    await page.getByTestId('edition-uploaded').waitFor();
    await page.getByTestId('edition-save').click();
    expect(await shownProblem(page)).toMatchObject({ code: 'EDITION_MISSION_NAME_MISSING', field: 'route.missions[1].name.et' });

    await page.getByTestId('edition-upload').setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"missions": [') });
    expect((await shownProblem(page)).text).toContain('JSON');
    await page.context().close();
  });

  test('closing 2025 after its late-entry deadline archives it; its form is read-only', async () => {
    const page = await editionsTab('est');
    const row = page.locator('[data-testid="edition-row"][data-year="2025"]');
    expect(await row.getAttribute('data-phase')).toBe('final');
    await row.getByTestId('edition-close').click();
    await page.getByTestId('edition-confirm-yes').click();
    await page.getByTestId('edition-saved').waitFor();
    await page.locator('[data-testid="edition-row"][data-year="2025"][data-status="closed"]').waitFor();
    await page.locator('[data-testid="edition-row"][data-year="2025"] [data-testid="edition-view"]').click();
    await page.getByTestId('edition-read-only').waitFor();
    expect(await page.getByTestId('edition-save').count()).toBe(0);
    expect(await page.getByTestId('edition-mission-0-nameEt').getAttribute('readonly')).not.toBeNull();
    await page.context().close();
  });
});


describe('a returning participant', () => {
  // A 2025 team no other file uses, with at least three members.
  const teams = new Map<number, ReturnType<typeof fixturePeople>>();
  for (const person of fixturePeople()) teams.set(person.teamId, [...(teams.get(person.teamId) ?? []), person]);
  const [teamId, members] = [...teams.entries()].filter(([, people]) => people.length >= 3).at(-3)!;
  const [captain, teammate] = members as [(typeof members)[number], (typeof members)[number]];
  let joinCode = '';

  beforeAll(async () => {
    stack = await sharedStack(E2E_STACKS.demoInRegistration);
  });

  /** A 2025 participant logged in (first password set by mail) on the account page, in `lang`. */
  async function accountPage(lang: Lang, email: string): Promise<Page> {
    const { page } = await kit.newPage(lang);
    await kit.setPasswordByMail(page, email, 'tagasi-2026-parool');
    await kit.login(page, email, 'tagasi-2026-parool');
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto(`${stack.baseUrl}/account`);
    await page.getByTestId('account-page').waitFor();
    return page;
  }

  test('keeps last year’s team, invites last year’s members and goes on to pay (Estonian)', async () => {
    const page = await accountPage('est', captain.email);
    const offer = page.getByTestId('join-edition');
    await offer.waitFor();
    expect(await offer.getAttribute('data-year')).toBe('2026');
    expect(await offer.textContent()).toContain('Liitu: ');
    const lastYear = await page.evaluate(async (id) => {
      const answer = await fetch(`/api/team/${id}`, { headers: { authorization: window.localStorage.getItem('token') ?? '' } });
      return ((await answer.json()) as { team_name: string }).team_name;
    }, teamId);
    expect(await offer.textContent()).toContain(lastYear);
    expect(await seriousViolations(page, '[data-testid="join-edition"]')).toEqual([]);
    await page.getByTestId('join-edition-submit').click();
    const done = page.getByTestId('join-edition-done');
    await done.waitFor();
    joinCode = (await page.getByTestId('join-edition-code').textContent()) ?? '';
    expect(joinCode).not.toBe('');

    // The session now names the new participant and team, of 2026.
    const claims = await page.evaluate(() => JSON.parse(atob((window.localStorage.getItem('token') ?? '').split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { teamId: number });
    expect(claims.teamId).not.toBe(teamId);
    expect(Number(await done.getAttribute('data-team-id'))).toBe(claims.teamId);

    await page.getByTestId('join-edition-invite').click();
    const invited = page.getByTestId('join-edition-invited');
    await invited.waitFor();
    const count = Number(await invited.getAttribute('data-count'));
    expect(count).toBeGreaterThanOrEqual(1);
    expect(count).toBeLessThanOrEqual(members.length - 1);

    await page.getByTestId('join-edition-pay').click();
    await page.waitForURL(/\/pay$/);

    // Joined: the account page offers nothing more.
    await page.goto(`${stack.baseUrl}/account`);
    await page.getByTestId('account-page').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('join-edition').count()).toBe(0);
    await page.context().close();
  });

  test('a teammate joins the re-opened team with its join code (English)', async () => {
    expect(joinCode).not.toBe('');
    const page = await accountPage('eng', teammate.email);
    await page.getByTestId('join-edition').waitFor();
    expect(await page.getByTestId('join-edition').textContent()).toContain('Join Sinilill 2026');
    await page.locator('input[name="join-mode"][value="joinCode"]').check();
    await page.getByTestId('join-edition-join-code').fill(joinCode);
    await page.getByTestId('join-edition-submit').click();
    await page.locator('[data-testid="join-edition-done"], [data-testid="alert-error"]').first().waitFor();
    expect(await page.getByTestId('alert-error').allTextContents()).toEqual([]);
    expect(await page.getByTestId('join-edition-invite').count()).toBe(0);
    expect(await page.getByTestId('join-edition-pay').textContent()).toBe('Continue to payment');
    await page.context().close();
  });
});
