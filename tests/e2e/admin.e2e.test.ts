/**
 * The admin console as an administrator uses it, in headless Chromium against
 * `npm start` (the 2025 export imported; the clock on 2 May 2025, inside the late-entry window,
 * so a participant may still edit entries). The administrator comes from ADMIN_EMAIL /
 * ADMIN_PASSWORD, as an operator would set them.
 *
 * - A password reset made in the browser lets an imported participant log in; she adds an entry
 *   and edits it twice.
 * - Paid and approved toggles, the user and team edit modals, and deletions of entries, a team
 *   and a user: the read models follow, the history keeps the events, and the erased people's
 *   personal data is in no answer and no export.
 * - The history filtered to one team shows that entry's timeline with the actor and each diff.
 * - A replay started from the console shows progress and ends with identical totals, and every
 *   read-model table's checksum matches the live one.
 * - A participant sees "This page is forbidden!" (every /api/admin route's 403 is tested in
 *   tests/int/admin-*.int.test.ts, history.int.test.ts and queue-board.int.test.ts).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import type {
  AdminEntriesAnswer, AdminTeamsAnswer, AdminUsersAnswer, EntryAnswer, HistoryPage, SettingsAnswer, StatsAnswer, TimelineAnswer,
} from '@sinilill/contracts';
import { launchBrowser } from '../support/browser';
import { e2eKit } from '../support/e2e-kit';
import type { RunningStack } from '../support/stack';
import { E2E_ADMIN, sharedStack, E2E_STACKS } from '../support/shared-stack';
import { fixturePeople } from '../support/app';

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

/** The fixture's participants (id, full name, e-mail, team) — the people of the 2025 export. */
const people = fixturePeople();
const person = (id: number) => people.find((p) => p.id === id)!;

const kaja = person(1); // team 1, Haapsalu Sõbrad
const anu = person(2); // team 1
const kylli = person(3); // team 1
const urmas = person(4); // team 1: the user deleted below
const deletedTeamId = 3; // Kiired Hirved: the team deleted below, with its members
const deletedTeamMembers = people.filter((p) => p.teamId === deletedTeamId);
const editedTeamId = 2; // Rahulikud Ilvesed: the team edited below

const text = (s: string | null) => (s ?? '').replace(/\s/g, ' ').trim();

async function api<T>(path: string, token: string | null, init: RequestInit = {}): Promise<{ status: number; body: T; raw: string }> {
  const response = await fetch(`${stack.baseUrl}/api${path}`, {
    ...init,
    headers: { ...(token ? { authorization: token } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });
  const raw = await response.text();
  let body: T;
  try {
    body = JSON.parse(raw) as T;
  } catch {
    body = raw as T;
  }
  return { status: response.status, body, raw };
}

let adminPage: Page;
let adminToken: string;
/** The imported participant's session, after the console reset her password. */
let kajaToken: string;
let kajaUserId: string;
/** The entry she adds and edits twice. */
let editedEntryId: number;

/** Opens a console tab and waits for its panel. */
async function openTab(page: Page, tab: string): Promise<void> {
  await page.getByTestId(`admin-tab-${tab}`).click();
  await page.getByTestId(`admin-panel-${tab}`).waitFor();
}

/** A table's row for entity `id` (the console's rows carry the entity id). */
function rowOf(page: Page, table: string, id: string | number) {
  return page.locator(`[data-testid="${table}"] [data-testid="admin-row"][data-id="${id}"]`);
}

/** Types into the open tab's search box and waits until the table shows `id`'s row. */
async function searchFor(page: Page, table: string, query: string, id: string | number): Promise<void> {
  await page.locator('[role="tabpanel"] [data-testid="admin-search"]').fill(query);
  await rowOf(page, table, id).waitFor();
}

/** Selects rows by id, presses delete, confirms; returns the green alert's text. */
async function deleteSelected(page: Page, table: string, ids: readonly (string | number)[]): Promise<string> {
  for (const id of ids) await page.locator(`[data-testid="${table}"] [data-testid="admin-select-${id}"]`).check();
  await page.getByTestId('admin-delete-selected').click();
  const confirm = page.getByTestId('admin-confirm-delete');
  await confirm.waitFor();
  // Spec §2: deletion is permanent, with a warning.
  expect(text(await confirm.textContent())).toMatch(/jäädavalt|permanent/i);
  await page.getByTestId('admin-confirm-delete-yes').click();
  const alert = page.getByTestId('alert-success');
  await alert.waitFor();
  return text(await alert.textContent());
}

async function users(): Promise<AdminUsersAnswer['users']> {
  return (await api<AdminUsersAnswer>('/admin/userdata', adminToken)).body.users;
}
async function teams(): Promise<AdminTeamsAnswer['teams']> {
  return (await api<AdminTeamsAnswer>('/admin/teamdata', adminToken)).body.teams;
}
async function entries(): Promise<AdminEntriesAnswer['entries']> {
  return (await api<AdminEntriesAnswer>('/admin/entrydata', adminToken)).body.entries;
}
const userOf = async (email: string) => (await users()).find((u) => u.email === email);

describe('the admin console', () => {
  test('the administrator logs in and opens the console', async () => {
    const { page } = await kit.newPage('est', 1440);
    adminPage = page;
    await kit.login(page, ADMIN.email, ADMIN.password);
    // An administrator without a participant has no fee: the console, and no not-paid banner.
    await page.waitForURL(/\/admin$/);
    adminToken = await page.evaluate('window.localStorage.getItem("token")') as string;
    expect(adminToken).toMatch(/^Bearer /);
    await page.getByTestId('admin-console').waitFor();
    expect(await page.getByTestId('not-paid-banner').count()).toBe(0);
    await page.getByTestId('admin-panel-users').waitFor();
  });

  test('reset password: made in the browser, shown in a disabled field, and it logs the participant in', async () => {
    const page = adminPage;
    await openTab(page, 'resetPassword');
    const kajaAccount = (await userOf(kaja.email))!;
    kajaUserId = kajaAccount.id;
    await page.selectOption('[data-testid="admin-reset-user"]', kajaUserId);
    await page.getByTestId('admin-reset-submit').click();
    await page.getByTestId('alert-success').waitFor();
    const field = page.getByTestId('admin-reset-password');
    expect(await field.isDisabled()).toBe(true);
    const password = await field.inputValue();
    expect(password.length).toBeGreaterThanOrEqual(12);

    const login = await api<{ token: string }>('/login', null, { method: 'POST', body: JSON.stringify({ email: kaja.email, password }) });
    expect(login.status).toBe(200);
    kajaToken = `Bearer ${login.body.token}`;

    // She adds an entry and edits it twice (the history test below reads its timeline).
    const added = await api<EntryAnswer>('/entry', kajaToken, {
      method: 'POST', body: JSON.stringify({ distance: 40.25, entry_type: 'WALK', performed_at: '2025-04-29' }),
    });
    expect(added.status).toBe(200);
    editedEntryId = added.body.entry.id;
    for (const edit of [
      { distance: 30, entry_type: 'WALK', performed_at: '2025-04-29' },
      { distance: 25.5, entry_type: 'Kepikõnd', performed_at: '2025-04-28' },
    ]) {
      const edited = await api<EntryAnswer>(`/entry/${editedEntryId}/edit`, kajaToken, { method: 'PUT', body: JSON.stringify(edit) });
      expect(edited.status).toBe(200);
    }
  });

  test('paid and approved toggles ask first and change on screen only after the server confirms', async () => {
    const page = adminPage;
    await openTab(page, 'users');
    const anuUser = (await userOf(anu.email))!;
    expect(anuUser.participant!.is_paid).toBe(true);
    await searchFor(page, 'admin-users-table', anu.email, anuUser.id);
    const row = rowOf(page, 'admin-users-table', anuUser.id);
    const paid = row.getByTestId('admin-toggle-paid');
    expect(await paid.getAttribute('aria-pressed')).toBe('true');

    // Hold the server's answer back: until it arrives the toggle shows the old state.
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    let sent!: () => void;
    const requested = new Promise<void>((resolve) => { sent = resolve; });
    await page.route('**/api/admin/participant/**', async (route) => {
      sent();
      await held;
      await route.continue();
    });
    await paid.click();
    await page.getByTestId('admin-toggle-confirm-yes').click();
    await requested;
    // A frame after the request left: a state set on the click has been painted by now.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await paid.getAttribute('aria-pressed')).toBe('true');
    release();
    await expect.poll(() => paid.getAttribute('aria-pressed')).toBe('false');
    await page.unroute('**/api/admin/participant/**');
    await expect.poll(async () => (await userOf(anu.email))!.participant!.is_paid).toBe(false);
    await page.getByTestId('alert-success').waitFor();

    await paid.click();
    await page.getByTestId('admin-toggle-confirm-yes').click();
    await expect.poll(() => paid.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(async () => (await userOf(anu.email))!.participant!.is_paid).toBe(true);

    // A refused change leaves the toggle as it was and shows a red alert in the confirmation.
    await page.route('**/api/admin/user/**', (route) => route.fulfill({ status: 400, contentType: 'application/json', body: '{"message":"INVALID_REQUEST"}' }));
    const approved = row.getByTestId('admin-toggle-approved');
    expect(await approved.getAttribute('aria-pressed')).toBe('true');
    await approved.click();
    await page.getByTestId('admin-toggle-confirm-yes').click();
    await page.getByTestId('admin-toggle-confirm').getByTestId('alert-error').waitFor();
    expect(await approved.getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('admin-toggle-confirm-cancel').click();
    await page.unroute('**/api/admin/user/**');

    await approved.click();
    await page.getByTestId('admin-toggle-confirm-yes').click();
    await expect.poll(() => approved.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(async () => (await userOf(anu.email))!.is_approved).toBe(false);
    await approved.click();
    await page.getByTestId('admin-toggle-confirm-yes').click();
    await expect.poll(() => approved.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(async () => (await userOf(anu.email))!.is_approved).toBe(true);
  });

  test('the user edit modal changes the full name', async () => {
    const page = adminPage;
    const kylliUser = (await userOf(kylli.email))!;
    await searchFor(page, 'admin-users-table', kylli.email, kylliUser.id);
    await rowOf(page, 'admin-users-table', kylliUser.id).getByTestId('admin-edit').click();
    const dialog = page.getByTestId('admin-edit-dialog');
    await dialog.waitFor();
    expect(await dialog.locator('[name="full_name"]').inputValue()).toBe(kylli.fullName);
    await dialog.locator('[name="full_name"]').fill('Külli Kask-Kukk');
    await dialog.getByTestId('admin-save').click();
    await page.getByTestId('alert-success').waitFor();
    await expect.poll(async () => (await userOf(kylli.email))!.participant!.full_name).toBe('Külli Kask-Kukk');
    await expect.poll(async () => text(await rowOf(page, 'admin-users-table', kylliUser.id).textContent())).toContain('Külli Kask-Kukk');
  });

  test('the team edit modal changes name, description and icon, and deletes the image', async () => {
    const page = adminPage;
    await openTab(page, 'teams');
    const before = (await teams()).find((t) => t.id === editedTeamId)!;
    await searchFor(page, 'admin-teams-table', before.team_name, editedTeamId);
    const row = rowOf(page, 'admin-teams-table', editedTeamId);
    await row.getByTestId('admin-edit').click();
    const dialog = page.getByTestId('admin-edit-dialog');
    await dialog.waitFor();
    await dialog.locator('[name="team_name"]').fill('Rahulikud Ilvesed 2025');
    await dialog.locator('[name="description"]').fill('Kõnnime rahulikult, aga iga päev.');
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#006edd' } }).png().toBuffer();
    await dialog.getByTestId('admin-team-icon-file').setInputFiles({ name: 'ilves.png', mimeType: 'image/png', buffer: png });
    await dialog.getByTestId('admin-save').click();
    await page.getByTestId('alert-success').waitFor();
    await expect.poll(async () => (await teams()).find((t) => t.id === editedTeamId)?.team_name).toBe('Rahulikud Ilvesed 2025');
    const edited = (await teams()).find((t) => t.id === editedTeamId)!;
    expect(edited.description).toBe('Kõnnime rahulikult, aga iga päev.');
    expect(edited.icon).toMatch(/^\/api\/images\/[0-9a-f]{64}\.webp$/);

    // Delete the image again.
    await searchFor(page, 'admin-teams-table', 'Rahulikud Ilvesed 2025', editedTeamId);
    await row.getByTestId('admin-edit').click();
    await dialog.waitFor();
    await dialog.getByTestId('admin-delete-image').click();
    await dialog.getByTestId('admin-save').click();
    await page.getByTestId('alert-success').waitFor();
    await expect.poll(async () => (await teams()).find((t) => t.id === editedTeamId)?.icon).toBeNull();
  });

  test('deleting entries, a team and a user: the read models follow and the history keeps the events', async () => {
    const page = adminPage;

    // Two of Külli's entries.
    await openTab(page, 'entries');
    const hers = (await entries()).filter((e) => e.participant_id === kylli.id).slice(0, 2);
    expect(hers).toHaveLength(2);
    await searchFor(page, 'admin-entries-table', 'Külli Kask-Kukk', hers[0]!.id);
    await rowOf(page, 'admin-entries-table', hers[1]!.id).waitFor();
    expect(await deleteSelected(page, 'admin-entries-table', hers.map((e) => e.id))).toContain('2');
    await expect.poll(async () => (await entries()).filter((e) => hers.some((h) => h.id === e.id))).toEqual([]);

    // A team, with its members.
    await openTab(page, 'teams');
    const team = (await teams()).find((t) => t.id === deletedTeamId)!;
    await searchFor(page, 'admin-teams-table', team.team_name, deletedTeamId);
    expect(await deleteSelected(page, 'admin-teams-table', [deletedTeamId])).toContain('1');
    await expect.poll(async () => (await teams()).some((t) => t.id === deletedTeamId)).toBe(false);
    const stats = (await api<StatsAnswer>('/stats', null)).body;
    expect(stats.teams.some((t) => t.team.id === deletedTeamId)).toBe(false);
    const emails = new Set((await users()).map((u) => u.email));
    for (const member of deletedTeamMembers) expect(emails.has(member.email)).toBe(false);
    expect((await entries()).some((e) => deletedTeamMembers.some((m) => m.id === e.participant_id))).toBe(false);

    // A user.
    await openTab(page, 'users');
    const urmasUser = (await userOf(urmas.email))!;
    await searchFor(page, 'admin-users-table', urmas.email, urmasUser.id);
    expect(await deleteSelected(page, 'admin-users-table', [urmasUser.id])).toContain('1');
    await expect.poll(async () => (await userOf(urmas.email)) === undefined).toBe(true);
    // His entries stay, so his team keeps its km: a person's deletion keeps them, whoever deletes
    // (docs/decisions/0109, as the privacy page says).
    expect((await entries()).some((e) => e.participant_id === urmas.id)).toBe(true);

    // The history keeps the events, with the personal fields unreadable.
    const history = (await api<HistoryPage>(`/admin/history?participant=${urmas.id}&limit=500`, adminToken)).body;
    const types = history.events.map((e) => e.type);
    expect(types).toContain('ParticipantRegistered');
    expect(types).toContain('ParticipantDeleted');
    const teamHistory = (await api<HistoryPage>(`/admin/history?team=${deletedTeamId}&type=TeamDeleted`, adminToken)).body;
    expect(teamHistory.events).toHaveLength(1);
    const entryHistory = (await api<HistoryPage>(`/admin/history?stream=entry-${hers[0]!.id}`, adminToken)).body;
    expect(entryHistory.events.map((e) => e.type)).toContain('EntryDeleted');
  });

  test('erased personal data appears in no answer and no export', async () => {
    const erased = [urmas, ...deletedTeamMembers];
    // E-mails are unique; a name counts only when no one left has the same name (the export has
    // namesakes, whose names rightly stay).
    const remaining = new Set(people.filter((p) => !erased.includes(p)).map((p) => p.fullName));
    const secrets = erased.flatMap((p) => (remaining.has(p.fullName) ? [p.email] : [p.fullName, p.email]));
    expect(secrets.length).toBeGreaterThan(erased.length);
    const answers = await Promise.all([
      api('/admin/userdata', adminToken), api('/admin/teamdata', adminToken), api('/admin/entrydata', adminToken),
      api('/stats', null), api(`/team/1/participants`, kajaToken), api(`/team/1/entries`, kajaToken),
      api(`/admin/history?participant=${urmas.id}&limit=500`, adminToken),
      api(`/admin/history/timeline?stream=participant-${urmas.id}`, adminToken),
      api(`/admin/history?team=${deletedTeamId}&limit=500`, adminToken),
      api('/admin/history/export?format=ndjson', adminToken), api('/admin/history/export?format=csv', adminToken),
    ]);
    for (const answer of answers) expect(answer.status).toBe(200);
    // The full exports really are the whole log: they hold the people who were not erased.
    expect(answers[9]!.raw).toContain(kaja.email);
    expect(answers[10]!.raw).toContain(kaja.email);
    for (const [index, answer] of answers.entries()) {
      const leaked = secrets.filter((secret) => answer.raw.includes(secret));
      expect({ index, leaked }).toEqual({ index, leaked: [] });
    }
  });

  test('the history, filtered to one team, shows the timeline of an entry edited twice with actor and diff', async () => {
    const page = adminPage;
    await openTab(page, 'history');
    const form = page.getByTestId('admin-panel-history');
    await form.locator('[name="teamId"]').fill(String(kaja.teamId));
    await form.locator('[name="eventType"]').fill('EntryEdited');
    await page.getByTestId('history-apply').click();
    const edits = page.locator(`[data-testid="history-event"][data-type="EntryEdited"]`);
    await expect.poll(() => edits.count()).toBe(2);
    await edits.first().getByTestId('history-stream-link').click();

    const timeline = page.getByTestId('history-timeline');
    await timeline.waitFor();
    const items = timeline.getByTestId('timeline-item');
    await expect.poll(async () => (await items.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-type')))))
      .toEqual(['EntryAdded', 'EntryEdited', 'EntryEdited']);
    const first = items.nth(1);
    const second = items.nth(2);
    for (const item of [first, second]) {
      expect(text(await item.getByTestId('timeline-actor').textContent())).toContain(kaja.email);
    }
    const firstDiff = text(await first.getByTestId('timeline-diff').allTextContents().then((t) => t.join(' | ')));
    // The fields are named in the page's language (Estonian here), not by their names in the log.
    expect(firstDiff).toMatch(/Distants: 40[.,]25 → 30/);
    const secondDiff = text(await second.getByTestId('timeline-diff').allTextContents().then((t) => t.join(' | ')));
    expect(secondDiff).toMatch(/Distants: 30 → 25[.,]5/);
    expect(secondDiff).toMatch(/Tüüp: WALK → Kepikõnd/);
    expect(secondDiff).toMatch(/Soorituse kuupäev: 2025-04-29 → 2025-04-28/);
    expect(firstDiff).not.toMatch(/Tüüp/);

    // The export button downloads the filtered events.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('history-export-ndjson').click()]);
    const lines = readFileSync((await download.path())!, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; stream: string });
    expect(lines.map((l) => l.type)).toEqual(['EntryEdited', 'EntryEdited']);
    expect(lines.every((l) => l.stream === `entry-${editedEntryId}`)).toBe(true);
  });

  test('the switches are events, and a replay from the console shows progress and ends with identical totals and matching checksums', async () => {
    const page = adminPage;
    await openTab(page, 'operations');
    const registration = page.getByTestId('switch-registration');
    expect(await registration.getAttribute('aria-pressed')).toBe('true');
    await registration.click();
    await expect.poll(() => registration.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(async () => (await api<SettingsAnswer>('/settings', null)).body.registrationEnabled).toBe(false);
    await registration.click();
    await expect.poll(() => registration.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(async () => (await api<SettingsAnswer>('/settings', null)).body.registrationEnabled).toBe(true);
    const switches = (await api<HistoryPage>('/admin/history?entity=settings&limit=500', adminToken)).body.events;
    expect(switches.filter((e) => e.actor?.userId !== null).length).toBeGreaterThanOrEqual(2);

    const before = (await api<StatsAnswer>('/stats', null)).body;
    await page.getByTestId('replay-start').click();
    await page.getByTestId('replay-confirm-yes').click();
    await page.getByTestId('replay-progress').waitFor({ state: 'attached' });
    const result = page.getByTestId('replay-result');
    await result.waitFor({ timeout: 60_000 });
    await page.getByTestId('replay-identical').waitFor();
    expect(text(await page.getByTestId('replay-before').textContent())).toBe(text(await page.getByTestId('replay-after').textContent()));
    // The log did not change: every read-model table rebuilt matches the live one before the swap.
    const checksums = page.getByTestId('replay-checksums');
    await checksums.waitFor();
    const tables = checksums.getByTestId('replay-checksum');
    expect(await tables.count()).toBeGreaterThan(5);
    expect(new Set(await tables.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-verdict'))))).toEqual(new Set(['match']));
    expect(await checksums.getAttribute('data-differing')).toBe('0');
    expect(text(await checksums.getByTestId('replay-checksums-summary').textContent())).toBe(`Kõik ${await tables.count()} tabelit kattuvad.`);
    expect(text(await checksums.locator('[data-testid="replay-checksum"][data-table="team_stats"]').innerText()))
      .toMatch(/^team_stats [\d ]+ [0-9a-f]{16} [\d ]+ [0-9a-f]{16} kattub$/);
    expect(await checksums.getByRole('table', { name: 'Lugemismudelite kontrollsummad enne vahetust' }).count()).toBe(1);
    const after = (await api<StatsAnswer>('/stats', null)).body;
    expect({ participants: after.totalParticipants, distance: after.totalDistance, teams: after.teams.length })
      .toEqual({ participants: before.totalParticipants, distance: before.totalDistance, teams: before.teams.length });
    const recorded = (await api<HistoryPage>('/admin/history?type=ReadModelsReplayed', adminToken)).body.events;
    expect(recorded).toHaveLength(1);
  });

  test('a participant sees "This page is forbidden!" and the server refuses her', async () => {
    const { page } = await kit.newPage('eng', 1440);
    await page.goto(`${stack.baseUrl}/`);
    await page.evaluate((token) => window.localStorage.setItem('token', token), kajaToken);
    await page.goto(`${stack.baseUrl}/admin`);
    const forbidden = page.getByTestId('admin-forbidden');
    await forbidden.waitFor();
    expect(text(await forbidden.textContent())).toContain('This page is forbidden!');
    expect((await api('/admin/userdata', kajaToken)).status).toBe(403);
    const timeline = await api<TimelineAnswer>(`/admin/history/timeline?stream=entry-${editedEntryId}`, kajaToken);
    expect(timeline.status).toBe(403);
  });
});
