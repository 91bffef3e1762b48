/**
 * The rough edges a participant meets, in headless Chromium against
 * `npm start` (the 2025 export imported), in Estonian and in English. One stack, its clock on
 * 2 May 2025: the late-entry window, so entries are still open.
 *
 * - The home page says where the edition stands by the app's clock (the stats' `today`), not
 *   "has ended": here the late-entry window, inviting entries while the switch is on and not
 *   once it is off. The other phases (20 April: during; 6 May: after the draw; and the edges) are
 *   the pure function's, tested in web/src/lib/edition-phase.test.ts.
 * - Deleting entries asks in the site's own modal (focus in it, Escape cancels, focus back on
 *   the button), and add and delete announce themselves in the same status line; the new join
 *   code asks in the same modal.
 * - /pay's bank-transfer description is the configured one, never Estonian on the English page; the payment result page shows the
 *   address's amount only as what the bank reported, the fee as the server knows it, and a way on
 *   to the team page.
 * - An unknown admin tab says so with a link to the first; a tab that fails to render shows a
 *   message with "try again" while the console stays usable; an unknown address is a not-found
 *   page with a link home and its own title.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Entry, SettingsAnswer } from '@sinilill/contracts';
import { launchBrowser } from '../support/browser';
import { e2eKit, type Lang } from '../support/e2e-kit';
import { eventually, type RunningStack } from '../support/stack';
import { E2E_ADMIN, sharedStack, E2E_STACKS } from '../support/shared-stack';
import { fixturePeople } from '../support/app';
import { repoRoot } from '@sinilill/config';

const artifacts = join(repoRoot, 'test-results');
const ADMIN = E2E_ADMIN;

let stack: RunningStack;
let browser: Browser;
const kit = e2eKit(() => stack, () => browser);

beforeAll(async () => {
  [stack, browser] = await Promise.all([
    sharedStack(E2E_STACKS.may2),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** The fixture's participants: Siim Sepp (52) is the captain of team 7 and has not paid. */
const people = fixturePeople();
const siim = people.find((p) => p.id === 52)!;
const SIIM_PASSWORD = 'Sinilill liige 2025 parool!';

const text = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

async function api<T>(path: string, token: string | null, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(`${stack.baseUrl}/api${path}`, {
    ...init,
    headers: { ...(token ? { authorization: token } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });
  return { status: response.status, body: await response.json().catch(() => null) as T };
}

async function tokenFor(email: string, password: string): Promise<string> {
  const login = await api<{ token: string }>('/login', null, { method: 'POST', body: JSON.stringify({ email, password }) });
  expect(login.status).toBe(200);
  return `Bearer ${login.body.token}`;
}

/** The data-testid of the focused element and whether it is inside an open dialog. */
async function focus(page: Page): Promise<{ testId: string | null; inDialog: boolean }> {
  return page.evaluate(() => ({
    testId: document.activeElement?.getAttribute('data-testid') ?? null,
    inDialog: document.activeElement?.closest('dialog[open]') != null,
  }));
}

const PHASE = {
  est: { heading: 'Sinilille 2025 liikumiskuu on läbi', open: 'kuni 3. mai keskööni', closed: 'Soorituste lisamine on suletud', draw: '5. mail kell 17.00' },
  eng: { heading: 'The Sinilill 2025 month of moving is over', open: 'until midnight on 3 May', closed: 'Adding activities is closed', draw: 'on 5 May at 17:00' },
} as const;

describe('the home page follows the edition’s phase on the app’s clock (2 May: late entries)', () => {
  for (const lang of ['est', 'eng'] as const) {
    test(`${lang}: entries are still accepted, and the draw is coming`, async () => {
      const { context, page } = await kit.newPage(lang);
      await page.goto(stack.baseUrl);
      const notice = page.getByTestId('edition-phase');
      await notice.waitFor();
      expect(await notice.getAttribute('data-phase')).toBe('lateEntries');
      const shown = text(await notice.textContent());
      expect(shown).toContain(PHASE[lang].heading);
      expect(shown).toContain(PHASE[lang].draw);
      expect(shown).not.toMatch(/on lõppenud|has ended/);
      await expect.poll(async () => text(await page.getByTestId('phase-entries-open').textContent().catch(() => ''))).toContain(PHASE[lang].open);
      expect(await page.getByTestId('phase-team-link').getAttribute('href')).toBe('/team');
      await notice.screenshot({ path: join(artifacts, `home-phase-late-entries-${lang}.png`) });
      await context.close();
    });
  }
});

describe('entries on the team page: one dialog and one status line for add, edit and delete', () => {
  let entryIds: number[] = [];

  /** Adds an entry in the modal and returns the status line's text and the new row's id. */
  async function addEntry(page: Page, lang: Lang, distance: string): Promise<{ status: string; id: string }> {
    await page.getByTestId('add-entry').click();
    await page.getByTestId('entry-dialog').waitFor();
    await page.fill('[data-testid="entry-distance"]', distance);
    await page.selectOption('[data-testid="entry-type"]', 'WALK');
    await page.fill('[data-testid="entry-performed-at"]', '2025-04-29');
    await page.getByTestId('entry-submit').click();
    await page.getByTestId('entry-dialog').waitFor({ state: 'hidden' });
    const status = await page.getByTestId('entries-status').getByTestId('alert-success').textContent();
    await expect.poll(async () => text(await page.getByTestId('entries-table-row').first().textContent())).toContain(Number(distance).toFixed(2).replace('.', lang === 'est' ? ',' : '.'));
    const id = (await page.getByTestId('entries-table-row').first().getAttribute('data-row-id'))!;
    return { status: text(status), id };
  }

  async function deleteWithDialog(page: Page, lang: Lang, id: string): Promise<void> {
    const row = page.locator(`[data-testid="entries-table-row"][data-row-id="${id}"]`);
    const button = page.getByTestId('entries-delete');
    const dialog = page.getByTestId('entries-confirm-delete');
    await page.getByTestId(`entries-table-select-${id}`).check();

    // Escape cancels: nothing is deleted, the focus is back on the button.
    await button.click();
    await dialog.waitFor();
    expect(await focus(page)).toEqual({ testId: 'entries-confirm-delete-cancel', inDialog: true });
    expect(text(await dialog.textContent())).toMatch(lang === 'est' ? /tagasi võtta/ : /cannot be undone/);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect((await focus(page)).testId).toBe('entries-delete');
    expect(await row.count()).toBe(1);

    // Confirmed: deleted, announced in the status line, the focus back on the button.
    await button.click();
    await dialog.waitFor();
    await page.screenshot({ path: join(artifacts, `team-delete-dialog-${lang}.png`) });
    await page.getByTestId('entries-confirm-delete-yes').click();
    await dialog.waitFor({ state: 'hidden' });
    const status = page.getByTestId('entries-status');
    expect(await status.getAttribute('role')).toBe('status');
    await expect.poll(async () => text(await status.textContent())).toBe(lang === 'est' ? 'Kustutatud: 1 sooritus.' : 'Deleted: 1 activity.');
    await expect.poll(async () => row.count()).toBe(0);
    expect((await focus(page)).testId).toBe('entries-delete');
  }

  test('est: add is announced; delete asks in the modal, Escape cancels, confirming deletes and says so', async () => {
    const { context, page } = await kit.newPage('est');
    await kit.setPasswordByMail(page, siim.email, SIIM_PASSWORD);
    await kit.login(page, siim.email, SIIM_PASSWORD);
    await page.waitForURL(/\/pay$/); // not paid: login leads to /pay
    await page.goto(`${stack.baseUrl}/team`);
    await page.getByTestId('team-card').waitFor();

    const added = await addEntry(page, 'est', '12.34');
    expect(added.status).toBe('Lisatud: 1 sooritus.');
    entryIds.push(Number(added.id));
    await deleteWithDialog(page, 'est', added.id);

    // The new join code asks in the same modal: Escape keeps the code, confirming replaces it.
    const code = page.getByTestId('join-code');
    await expect.poll(async () => text(await code.textContent())).toMatch(/^[A-Z0-9]{6,}$/);
    const oldCode = text(await code.textContent());
    await page.getByTestId('join-code-new').click();
    await page.getByTestId('join-code-confirm').waitFor();
    expect(await focus(page)).toEqual({ testId: 'join-code-confirm-cancel', inDialog: true });
    await page.keyboard.press('Escape');
    await page.getByTestId('join-code-confirm').waitFor({ state: 'hidden' });
    expect((await focus(page)).testId).toBe('join-code-new');
    expect(text(await code.textContent())).toBe(oldCode);
    await page.getByTestId('join-code-new').click();
    await page.getByTestId('join-code-confirm-yes').click();
    await expect.poll(async () => text(await code.textContent())).not.toBe(oldCode);
    await page.getByTestId('join-code-notice').waitFor();
    expect((await focus(page)).testId).toBe('join-code-new');
    await context.close();
  });

  test('eng: the same dialog and status texts in English; the server no longer has the deleted entries', async () => {
    const { context, page } = await kit.newPage('eng');
    await kit.login(page, siim.email, SIIM_PASSWORD);
    await page.waitForURL(/\/pay$/);
    await page.goto(`${stack.baseUrl}/team`);
    await page.getByTestId('team-card').waitFor();
    const added = await addEntry(page, 'eng', '5.5');
    expect(added.status).toBe('Added: 1 activity.');
    entryIds.push(Number(added.id));
    await deleteWithDialog(page, 'eng', added.id);

    const token = await tokenFor(siim.email, SIIM_PASSWORD);
    const entries = (await api<Entry[]>(`/team/${siim.teamId}/entries`, token)).body;
    expect(entries.filter((e) => entryIds.includes(e.id))).toEqual([]);
    entryIds = [];
    await context.close();
  });
});

describe('payment pages', () => {
  // The description comes from configuration (BANK_TRANSFER_DESCRIPTION, default
  // "Sinilill {year} ID {participantId}"): the same words whatever the page's language, with no
  // Estonian left on the English page.
  for (const [lang, description] of [['est', `Sinilill 2025 ID ${siim.id}`], ['eng', `Sinilill 2025 ID ${siim.id}`]] as const) {
    test(`${lang}: /pay's transfer description is in the page's language; the result page reports the bank, knows the fee and leads to the team`, async () => {
      const { context, page } = await kit.newPage(lang);
      await kit.login(page, siim.email, SIIM_PASSWORD);
      await page.waitForURL(/\/pay$/);
      await page.getByTestId('bank-transfer').waitFor();
      expect(text(await page.getByTestId('bank-description').textContent())).toBe(description);

      // A made-up address: it cannot make the fee paid.
      await page.goto(`${stack.baseUrl}/payment/success?amount=999.00&code=SL-FAKE-1`);
      const panel = page.getByTestId('payment-success');
      await panel.waitFor();
      expect(text(await panel.textContent())).toContain(lang === 'est' ? 'Pank teatas' : 'The bank reported');
      expect(text(await page.getByTestId('payment-code').textContent())).toBe('SL-FAKE-1');
      const server = page.getByTestId('payment-server-state');
      await expect.poll(async () => server.getAttribute('data-state')).toBe('unpaid');
      expect(text(await server.textContent())).toBe(lang === 'est' ? 'Osalustasu ei ole veel makstuks märgitud.' : 'The participation fee has not been marked as paid yet.');
      await page.screenshot({ path: join(artifacts, `payment-result-${lang}.png`), fullPage: true });
      await page.getByTestId('payment-team').click();
      await page.waitForURL(/\/team$/);
      await page.getByTestId('team-card').waitFor();
      await context.close();
    });
  }
});

describe('the admin console and unknown addresses', () => {
  test('an unknown ?tab= says so with a link to the first tab, in both languages', async () => {
    for (const [lang, title, back] of [['est', 'Sellist vaadet ei ole', 'Ava vaade „Kasutajad“'], ['eng', 'There is no such view', 'Open the “Users” view']] as const) {
      const { context, page } = await kit.newPage(lang);
      await kit.login(page, ADMIN.email, ADMIN.password);
      await page.waitForURL(/\/admin$/);
      await page.goto(`${stack.baseUrl}/admin?tab=kasutajad-vana`);
      const unknown = page.getByTestId('admin-unknown-tab');
      await unknown.waitFor();
      expect(text(await unknown.textContent())).toContain(title);
      expect(text(await unknown.textContent())).toContain('kasutajad-vana');
      await page.screenshot({ path: join(artifacts, `admin-unknown-tab-${lang}.png`) });
      const link = page.getByTestId('admin-unknown-tab-back');
      expect(text(await link.textContent())).toBe(back);
      await link.click();
      await page.waitForURL(/\/admin\?tab=users$/);
      await page.getByTestId('admin-panel-users').waitFor();
      await context.close();
    }
  });

  test('a tab that fails to render shows a message with "try again"; the other tabs still work', async () => {
    const { context, page } = await kit.newPage('est');
    await kit.login(page, ADMIN.email, ADMIN.password);
    await page.waitForURL(/\/admin$/);
    // An answer of the wrong shape (created_at an object) makes the users tab throw while rendering.
    // The tab reads one page of GET /api/admin/users.
    const broken = {
      rows: [{ id: 'broken', email: 'katki@example.ee', is_approved: true, role: 'USER', participant_id: null, created_at: { when: 'eile' }, participant: null }],
      total: 1, page: 1, size: 50,
    };
    const usersPage = (url: URL) => url.pathname === '/api/admin/users';
    await page.route(usersPage, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(broken) }));
    await page.goto(`${stack.baseUrl}/admin?tab=users`);
    const failure = page.getByTestId('admin-tab-error');
    await failure.waitFor();
    expect(text(await failure.textContent())).toContain('Seda osa ei õnnestunud näidata');
    expect(await page.getByTestId('admin-error-home').getAttribute('href')).toBe('/');
    await page.screenshot({ path: join(artifacts, 'admin-tab-error-et.png') });
    // The console stays: another tab opens and works.
    await page.getByTestId('admin-tab-teams').click();
    await page.getByTestId('admin-panel-teams').waitFor();
    await page.locator('[data-testid="admin-panel-teams"] [data-testid="admin-row"]').first().waitFor();
    // Back on the failing tab, "try again" renders it afresh once the answer is right.
    await page.getByTestId('admin-tab-users').click();
    await failure.waitFor();
    await page.unroute(usersPage);
    await page.getByTestId('admin-tab-error-retry').click();
    await page.locator('[data-testid="admin-panel-users"] [data-testid="admin-row"]').first().waitFor();
    expect(await failure.count()).toBe(0);
    await context.close();
  });

  test('with entries switched off the home page does not invite them, in both languages', async () => {
    const adminToken = await tokenFor(ADMIN.email, ADMIN.password);
    const setEntries = async (on: boolean) => {
      expect((await api('/admin/settings', adminToken, { method: 'PUT', body: JSON.stringify({ entryInsertionEnabled: on }) })).status).toBe(200);
      await eventually(async () => (await api<SettingsAnswer>('/settings', null)).body.entriesOpen === on);
    };
    await setEntries(false);
    try {
      for (const lang of ['est', 'eng'] as const) {
        const { context, page } = await kit.newPage(lang);
        await page.goto(stack.baseUrl);
        await page.getByTestId('phase-entries-closed').waitFor();
        const shown = text(await page.getByTestId('edition-phase').textContent());
        expect(shown).toContain(PHASE[lang].closed);
        expect(shown).not.toContain(PHASE[lang].open);
        expect(await page.getByTestId('phase-entries-open').count()).toBe(0);
        expect(await page.getByTestId('phase-team-link').count()).toBe(0);
        await context.close();
      }
    } finally {
      await setEntries(true);
    }
  });

  test('an unknown address is a not-found page with its title and a link home, in both languages', async () => {
    for (const [lang, path, title] of [['est', '/ei-ole-sellist-lehte', 'Lehte ei leitud'], ['eng', '/team/old/link', 'Page not found'], ['eng', '/payment/maybe', 'Page not found']] as const) {
      const { context, page } = await kit.newPage(lang);
      await page.goto(`${stack.baseUrl}${path}`);
      const notFound = page.getByTestId('not-found');
      await notFound.waitFor();
      expect(text(await notFound.locator('h1').textContent())).toBe(title);
      await expect.poll(() => page.title()).toBe(`${title} · Sinilill`);
      await notFound.getByRole('link').click();
      await page.waitForURL(`${stack.baseUrl}/`);
      await page.getByTestId('edition-phase').waitFor();
      await context.close();
    }
  });
});
