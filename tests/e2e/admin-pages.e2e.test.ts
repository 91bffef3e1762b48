/**
 * Tables paged, sorted and searched on the server, in headless Chromium against
 * `npm start` with a large log: a synthetic edition of SYNTHETIC_EVENTS events (about 2 000
 * participants in 250 teams, 55 000 entries), imported by the operators' CLI (`import
 * --synthetic`, services/cli) into the running stack's database instead of the 2025 export.
 *
 * For each of the admin console's users, teams and entries tabs and for the public participants
 * table: the first page shows quickly and is one page (a small answer, not the whole table),
 * paging to a later page, sorting by a column and searching with Estonian letters (case ignored)
 * each show what the paged API answers for that request, and (admin) the CSV download holds every
 * row of the search. The API's own answers are the expected values: the point here is that the
 * browser asks the server for the page, not that the server sorts (tests/int covers that).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { repoRoot } from '@sinilill/config';
import type { PublicTeamPageAnswer } from '@sinilill/contracts';
import { launchBrowser } from '../support/browser';
import { e2eKit } from '../support/e2e-kit';
import { eventually, type RunningStack } from '../support/stack';
import { E2E_STACKS, ownStack } from '../support/shared-stack';

const ADMIN = { email: E2E_STACKS.emptyMay2.ADMIN_EMAIL, password: E2E_STACKS.emptyMay2.ADMIN_PASSWORD };
/** The synthetic edition's size: big enough that loading a whole table would show (the 2025 entries tab: 3.2 MB). */
const SYNTHETIC_EVENTS = 60_000;
/** The first page must show within this (the whole 2025 entries table took ~7 s). */
const FIRST_PAGE_MS = 5_000;
/** One page of 50 rows is a few kB (the unpaged entries answer of this log: several MB). */
const PAGE_BYTES = 100_000;

/** Screenshots, kept as artifacts (not compared). */
const artifacts = join(repoRoot, 'test-results', 'admin-pages');

let stack: RunningStack;
let browser: Browser;
const kit = e2eKit(() => stack, () => browser);
let adminToken: string;
let adminPage: Page;
let imported: { teams: number; participants: number; entries: number };

/** Runs the compiled CLI's `import --synthetic` against the running stack (its PORT and DATA_DIR); answers what it printed. */
function importSynthetic(events: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const port = new URL(stack.baseUrl).port;
    // The compiled CLI the launcher has just built (bin/sinilill.mjs would rebuild when sources changed).
    const child = spawn(process.execPath, [join(repoRoot, 'services/cli/dist/main.js'), 'import', '--synthetic', String(events)], {
      cwd: repoRoot,
      env: { ...process.env, PORT: port, DATA_DIR: stack.dataDir, DATABASE_URL: '', REDIS_URL: '', JWT_SECRET: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`import exited with ${code}:\n${output}`))));
  });
}

async function api<T>(path: string, token: string | null = adminToken, init: RequestInit = {}): Promise<{ status: number; body: T; raw: string }> {
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

interface Paged {
  rows: { id: string | number }[];
  total: number;
}

/** A paged read of the API, as the expected value: the row ids in order and the total. */
async function expected(path: string, query: Record<string, string | number>): Promise<{ ids: string[]; total: number }> {
  const search = Object.entries(query).map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`).join('&');
  const answer = await api<Paged>(`${path}?${search}`);
  expect(answer.status, answer.raw.slice(0, 300)).toBe(200);
  return { ids: answer.body.rows.map((row) => String(row.id)), total: answer.body.total };
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  // The synthetic edition only (no 2025 export): its size is the point. The administrator comes
  // from ADMIN_EMAIL / ADMIN_PASSWORD.
  [stack, browser] = await Promise.all([
    ownStack(E2E_STACKS.emptyMay2),
    launchBrowser(),
  ]);
  const output = await importSynthetic(SYNTHETIC_EVENTS);
  const counts = /imported (\d+) teams, (\d+) participants, (\d+) entries/.exec(output);
  if (!counts) throw new Error(`no import summary in:\n${output}`);
  imported = { teams: Number(counts[1]), participants: Number(counts[2]), entries: Number(counts[3]) };
  expect(imported.entries).toBeGreaterThan(40_000);
  const login = await api<{ token: string }>('/login', null, { method: 'POST', body: JSON.stringify(ADMIN) });
  expect(login.status).toBe(200);
  adminToken = `Bearer ${login.body.token}`;
  // The projections catch up with the import (the CLI wakes the projector).
  await eventually(async () => (await api<Paged>('/admin/entries?size=10')).body.total === imported.entries, 90_000);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const text = (s: string | null) => (s ?? '').replace(/\s/g, ' ').trim();
/** Text as the searches compare it: lower case, diacritics dropped ("õun" and "oun" are one search). */
const fold = (s: string) => s.toLocaleLowerCase('et').normalize('NFD').replace(/\p{M}+/gu, '');

/** Polls until `probe` answers what is expected: a read takes the debounce (300 ms) and a server round trip. */
const poll = <T>(probe: () => Promise<T>) => expect.poll(probe, { timeout: 15_000 });

/** The largest answer (bytes, uncompressed) of the API reads whose URL contains `part`, as the page's resource timing saw them. */
function largestRead(page: Page, part: string): Promise<number> {
  return page.evaluate(
    (fragment) =>
      Math.max(
        0,
        ...performance
          .getEntriesByType('resource')
          .filter((entry) => entry.name.includes(fragment))
          .map((entry) => (entry as PerformanceResourceTiming).decodedBodySize),
      ),
    part,
  );
}

/** The row ids a table shows, in order (`attribute`: data-id in the console, data-row-id elsewhere). */
function shownIds(rows: Locator, attribute: string): Promise<string[]> {
  return rows.evaluateAll((nodes, name) => nodes.map((node) => node.getAttribute(name) ?? ''), attribute);
}

/** The numbered page buttons of the table with test-id prefix `hooks` (not its page-size choice). */
async function pageButtons(scope: Locator, hooks: string): Promise<number> {
  const ids = await scope.locator(`[data-testid^="${hooks}-page-"]`).evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-testid') ?? ''));
  return ids.filter((id) => new RegExp(`^${hooks}-page-\\d+$`).test(id)).length;
}

/** The footer's "from–to / total". */
async function summaryTotal(scope: Locator): Promise<number> {
  const summary = text(await scope.locator('[aria-live="polite"]').first().textContent());
  return Number(/(\d[\d\s]*)$/.exec(summary)?.[1]?.replace(/\s/g, ''));
}

interface AdminTabCase {
  tab: 'users' | 'teams' | 'entries';
  /** The sort a header click asks for: the column's id (the API's sort key) and what its first click gives. */
  sort: { column: string; order: 'asc' | 'desc' };
  /** A search with Estonian letters, and the same in other letter case. */
  search: [string, string];
  /** The tab's default sort (spec §2; the contract's DEFAULT_SORT). */
  defaultSort: { sort: string; order: 'asc' | 'desc' };
}

const TABS: AdminTabCase[] = [
  { tab: 'users', sort: { column: 'full_name', order: 'asc' }, search: ['Õun', 'õUN'], defaultSort: { sort: 'participant_created_at', order: 'desc' } },
  { tab: 'teams', sort: { column: 'participant_count', order: 'desc' }, search: ['Põdrad', 'PÕDRAD'], defaultSort: { sort: 'team_name', order: 'asc' } },
  { tab: 'entries', sort: { column: 'distance', order: 'desc' }, search: ['Mägi', 'mÄGI'], defaultSort: { sort: 'created_at', order: 'desc' } },
];

describe('the admin console pages, sorts and searches on the server', () => {
  test('the administrator logs in', async () => {
    const { page } = await kit.newPage('est', 1440);
    adminPage = page;
    await kit.login(page, ADMIN.email, ADMIN.password);
    await page.waitForURL(/\/admin$/);
    await page.getByTestId('admin-console').waitFor();
  });

  for (const { tab, sort, search, defaultSort } of TABS) {
    test(`${tab}: the first page quickly, a later page, a sort, a search with Estonian letters, the CSV`, async () => {
      const page = adminPage;
      const table = page.getByTestId(`admin-${tab}-table`);
      const rows = table.getByTestId('admin-row');
      const path = `/admin/${tab}`;
      const ids = () => shownIds(rows, 'data-id');

      // The first page: one small answer, shown quickly. (Users is the console's first tab:
      // shown already after the login; opened again here from another tab.)
      if (tab === 'users') await page.getByTestId('admin-tab-teams').click();
      const started = Date.now();
      await page.getByTestId(`admin-tab-${tab}`).click();
      await rows.first().waitFor({ timeout: FIRST_PAGE_MS });
      expect(Date.now() - started).toBeLessThan(FIRST_PAGE_MS);
      const read = await largestRead(page, `/api${path}?`);
      expect(read).toBeGreaterThan(0);
      expect(read).toBeLessThan(PAGE_BYTES);
      const first = await expected(path, { page: 1, size: 50, ...defaultSort });
      await poll(ids).toEqual(first.ids);
      expect(first.ids).toHaveLength(50);
      expect(await summaryTotal(table)).toBe(first.total);
      expect(first.total).toBeGreaterThanOrEqual(tab === 'entries' ? imported.entries : tab === 'teams' ? imported.teams : imported.participants);
      // Spec §9: up to 7 page buttons.
      expect(await pageButtons(table, 'admin')).toBe(Math.min(7, Math.ceil(first.total / 50)));

      // A later page: page 3, then the next one.
      await table.getByTestId('admin-page-3').click();
      await poll(ids).toEqual((await expected(path, { page: 3, size: 50, ...defaultSort })).ids);
      await table.getByTestId('admin-next').click();
      await poll(ids).toEqual((await expected(path, { page: 4, size: 50, ...defaultSort })).ids);
      expect(await table.getByTestId('admin-page-4').getAttribute('aria-current')).toBe('page');

      // A sort: back to page 1, in the server's order.
      await table.getByTestId(`admin-sort-${sort.column}`).click();
      const sorted = await expected(path, { page: 1, size: 50, sort: sort.column, order: sort.order });
      await poll(ids).toEqual(sorted.ids);

      // A search with Estonian letters (after the typing pauses), case ignored; page 1 again.
      await table.getByTestId('admin-page-2').click();
      await poll(ids).toEqual((await expected(path, { page: 2, size: 50, sort: sort.column, order: sort.order })).ids);
      await table.getByTestId('admin-search').fill(search[0]);
      const found = await expected(path, { page: 1, size: 50, sort: sort.column, order: sort.order, q: search[0] });
      expect(found.total).toBeGreaterThan(0);
      expect(found.total).toBeLessThan(first.total);
      await poll(ids).toEqual(found.ids);
      await poll(() => summaryTotal(table)).toBe(found.total);
      const otherCase = await expected(path, { page: 1, size: 50, sort: sort.column, order: sort.order, q: search[1] });
      expect(otherCase).toEqual(found);
      for (const row of await rows.all()) expect(fold(text(await row.textContent()))).toContain(fold(search[0]));

      // The CSV: every row of the search, in a file named by the server.
      const [download] = await Promise.all([page.waitForEvent('download'), table.getByTestId('admin-csv').click()]);
      expect(download.suggestedFilename()).toMatch(/\.csv$/);
      const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
      expect(csv.length - 1).toBe(found.total);
      for (const line of csv.slice(1, 200)) expect(fold(line)).toContain(fold(search[0]));
      await page.getByTestId('alert-success').waitFor();

      // A bigger page: 100 rows.
      await table.getByTestId('admin-search').fill('');
      await table.getByTestId('admin-page-size').selectOption('100');
      await poll(() => rows.count()).toBe(100);
      await poll(ids).toEqual((await expected(path, { page: 1, size: 100, sort: sort.column, order: sort.order })).ids);
    });
  }

  test('a selection is kept across pages and deleted together', async () => {
    const page = adminPage;
    const table = page.getByTestId('admin-entries-table');
    const rows = table.getByTestId('admin-row');
    await page.getByTestId('admin-tab-teams').click();
    await page.getByTestId('admin-tab-entries').click();
    await rows.first().waitFor();
    const pageOne = (await expected('/admin/entries', { page: 1, size: 50 })).ids;
    await poll(() => shownIds(rows, 'data-id')).toEqual(pageOne);
    await table.getByTestId(`admin-select-${pageOne[0]}`).check();
    await table.getByTestId('admin-page-2').click();
    const pageTwo = (await expected('/admin/entries', { page: 2, size: 50 })).ids;
    await poll(() => shownIds(rows, 'data-id')).toEqual(pageTwo);
    await table.getByTestId(`admin-select-${pageTwo[0]}`).check();
    expect(text(await page.getByTestId('admin-delete-selected').textContent())).toContain('2');
    await page.screenshot({ path: join(artifacts, 'entries-selected-across-pages.png'), fullPage: true });
    await page.getByTestId('admin-delete-selected').click();
    await page.getByTestId('admin-confirm-delete-yes').click();
    expect(text(await page.getByTestId('alert-success').textContent())).toContain('2');
    await poll(async () => (await api<Paged>('/admin/entries?size=10')).body.total).toBe(imported.entries - 2);
    // The page is read again (read-your-writes): page 2 no longer starts with the deleted entry.
    await poll(() => shownIds(rows, 'data-id')).toEqual((await expected('/admin/entries', { page: 2, size: 50 })).ids);
    expect(text(await page.getByTestId('admin-delete-selected').textContent())).toContain('0');
  });
});

describe('the public participants table pages, sorts and searches on the server', () => {
  test('10 teams quickly, page 2 numbered from 11, sorted by teammates, searched with Estonian letters', async () => {
    const { context, page } = await kit.newPage('est', 1440);
    const table = page.getByTestId('teams-table');
    const rows = table.getByTestId('teams-table-row');
    const publicPage = async (query: Record<string, string | number>) => {
      const search = Object.entries(query).map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`).join('&');
      const answer = await api<PublicTeamPageAnswer>(`/stats/teams?${search}`, null);
      expect(answer.status, answer.raw.slice(0, 300)).toBe(200);
      return { ids: answer.body.rows.map((row) => String(row.team.id)), total: answer.body.total };
    };
    const ids = () => shownIds(rows, 'data-row-id');

    const started = Date.now();
    await page.goto(`${stack.baseUrl}/participants`);
    await rows.first().waitFor({ timeout: FIRST_PAGE_MS });
    expect(Date.now() - started).toBeLessThan(FIRST_PAGE_MS);
    const read = await largestRead(page, '/api/stats/teams?');
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(PAGE_BYTES);
    const first = await publicPage({ page: 1, size: 10 });
    expect(first.total).toBe(imported.teams);
    await poll(ids).toEqual(first.ids);
    expect(await pageButtons(table, 'teams-table')).toBe(7);

    await table.getByTestId('teams-table-next').click();
    await poll(ids).toEqual((await publicPage({ page: 2, size: 10 })).ids);
    expect(text(await table.getByTestId('teams-table-row-number').first().textContent())).toBe('11');
    expect(text(await table.getByTestId('teams-table-row-number').last().textContent())).toBe('20');

    await table.getByTestId('teams-table-sort-participants').click();
    await poll(ids).toEqual((await publicPage({ page: 1, size: 10, sort: 'participants', order: 'desc' })).ids);

    await table.getByTestId('teams-table-search').fill('rõõmsad');
    const found = await publicPage({ page: 1, size: 10, sort: 'participants', order: 'desc', q: 'Rõõmsad' });
    expect(found.total).toBeGreaterThan(0);
    expect(found.total).toBeLessThan(first.total);
    await poll(ids).toEqual(found.ids);
    for (const row of await rows.all()) expect(fold(text(await row.textContent()))).toContain(fold('Rõõmsad'));
    await page.screenshot({ path: join(artifacts, 'participants-searched.png'), fullPage: true });
    expect(await summaryTotal(table)).toBe(found.total);
    await context.close();
  });
});
