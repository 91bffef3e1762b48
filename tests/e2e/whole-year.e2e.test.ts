/**
 * A whole year of editions in headless Chromium against `npm start`, on one data folder whose
 * clock moves by configuration: the launcher is stopped and started again with a later
 * CLOCK_START, as an operator would, and the log, the read models and the mail folder carry over.
 *
 * 1. 15 January 2026 (the 2025 export imported as edition 2025, its results final): the
 *    administrator closes 2025, which is then archived with the spec's figures (1 005
 *    participants, 121 teams, 196 445 km, 2 491 flowers); plans 2026 from it with a route of its
 *    own uploaded as JSON (a route with missions out of order is refused first, in Estonian, with
 *    the field it breaks), and
 *    announces it; the home says in both languages when 2026's registration opens.
 * 2. 10 April 2026 (2026 running): a 2025 participant logs in with last year's account, joins
 *    2026 keeping last year's team name, pays the fee in the sandbox and adds an entry; the home
 *    and the spec's statistics show only 2026; the 2025 archive is unchanged.
 * 3. 6 May 2026 (2026's results final): the administrator runs 2026's prize draw and closes the
 *    edition; the participant's 2026 certificate verifies for a visitor, and so does their 2025
 *    certificate.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { repoRoot } from '@sinilill/config';
import { edition2026Demo } from '@sinilill/domain/seed';
import { launchBrowser } from '../support/browser';
import { FIGURES_2025, fixturePeople } from '../support/app';
import { e2eKit, message, type Lang } from '../support/e2e-kit';
import { startStack, type RunningStack } from '../support/stack';
import { E2E_ADMIN, E2E_JWT_SECRET } from '../support/shared-stack';

let stack: RunningStack | null = null;
let browser: Browser;
const kit = e2eKit(() => stack!, () => browser);
/** The launcher's data folder, kept across the restarts (PostgreSQL, the mail folder). */
const dataDir = mkdtempSync(join(repoRoot, '.tmp-e2e-year-'));

/** Stops the running launcher (its data stays) and starts it again with the clock at `clockStart`. */
async function clockAt(clockStart: string): Promise<void> {
  await stack?.stop();
  stack = await startStack({
    DATA_DIR: dataDir, CLOCK_START: clockStart, DEMO_NEXT_EDITION: '',
    ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password, JWT_SECRET: E2E_JWT_SECRET,
  });
}

const text = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();
const digits = (s: string | null) => Number(text(s).replace(/[^\d]/g, ''));

/**
 * The highest log position a command answered in the pages watched (watchPositions). The console
 * shows a command's answer at once, before the read models have it; a read that follows carries
 * this as `x-min-position` (read-your-writes), as the web client's own reads after a write do.
 */
let seenPosition = 0;
/** The command answers whose bodies are still being read. */
const reading = new Set<Promise<void>>();

/** Records the `position` of every command answer `page` receives. */
function watchPositions(page: Page): void {
  page.on('response', (response) => {
    if (response.request().method() === 'GET' || !response.url().includes('/api/')) return;
    const read = response.json().then((body: { position?: unknown }) => {
      if (typeof body?.position === 'number') seenPosition = Math.max(seenPosition, body.position);
    }, () => undefined);
    reading.add(read);
    void read.finally(() => reading.delete(read));
  });
}

async function api<T>(path: string, token = ''): Promise<T> {
  await Promise.all(reading);
  const headers: Record<string, string> = token ? { authorization: token } : {};
  if (seenPosition > 0) headers['x-min-position'] = String(seenPosition);
  let answer = await fetch(`${stack!.baseUrl}/api${path}`, { headers });
  // The query API waits 3 s (READ_YOUR_WRITES_TIMEOUT_MS) and then answers what it has, saying so;
  // a busy machine's projector may need longer.
  for (let again = 0; again < 10 && answer.headers.get('x-read-your-writes') === 'timeout'; again += 1) {
    answer = await fetch(`${stack!.baseUrl}/api${path}`, { headers });
  }
  expect(answer.status, path).toBe(200);
  return (await answer.json()) as T;
}

interface EditionsAnswer {
  current: { year: number; status: string; phase: string } | null;
  next: { year: number; status: string; phase: string; edition: { registrationOpens: string } } | null;
  archive: { year: number }[];
}
interface HistoryAnswer {
  figures: { participants: number; teams: number; km: number; flowers: number; raisedCents: number };
  teams: { teamId: number; teamName: string; km: number }[];
}
interface StatsAnswer { teams: { team: { id: number } }[]; totalParticipants: number; totalDistance: number }

/** A logged-in administrator's page on the console's `tab`, in `lang`. */
async function adminTab(lang: Lang, tab: string): Promise<Page> {
  const { page } = await kit.newPage(lang);
  watchPositions(page);
  await kit.login(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.waitForURL((url) => url.pathname !== '/login');
  await page.goto(`${stack!.baseUrl}/admin?tab=${tab}`);
  return page;
}

/** Closes `year` in the editions tab and waits until the list says it is closed. */
async function closeEdition(page: Page, year: number): Promise<void> {
  const row = page.locator(`[data-testid="edition-row"][data-year="${year}"]`);
  await row.getByTestId('edition-close').click();
  await page.getByTestId('edition-confirm-yes').click();
  await page.locator(`[data-testid="edition-row"][data-year="${year}"][data-status="closed"]`).waitFor();
}

/** The certificate code in a certificate PDF (its subject: "Sinilill certificate CODE"). */
async function codeOf(pdf: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(pdf);
  return /^Sinilill certificate (\S+)$/.exec(doc.getSubject() ?? '')?.[1] ?? '';
}

// A 2025 team of at least two people: its captain comes back in 2026 under the same team name.
const teams = new Map<number, ReturnType<typeof fixturePeople>>();
for (const person of fixturePeople()) teams.set(person.teamId, [...(teams.get(person.teamId) ?? []), person]);
const [oldTeamId, oldMembers] = [...teams.entries()].find(([, people]) => people.length >= 2 && people.every((p) => p.isPaid))!;
const returning = oldMembers[0]!;
const PASSWORD = 'terve-aasta-2026';

let archived2025: HistoryAnswer;
let token = '';
let newTeamId = 0;
let participant2026 = 0;

beforeAll(async () => {
  browser = await launchBrowser();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a whole year: 2025 archived, 2026 planned, run and closed', () => {
  test('January 2026: the administrator archives 2025 and plans 2026 with a route of its own', async () => {
    await clockAt('2026-01-15T12:00:00+02:00');
    expect((await api<EditionsAnswer>('/editions')).current).toMatchObject({ year: 2025, status: 'opened', phase: 'final' });

    const page = await adminTab('est', 'editions');
    await page.getByTestId('edition-list').waitFor();
    await closeEdition(page, 2025);

    // The archive holds the spec's 2025 figures.
    archived2025 = await api<HistoryAnswer>('/history/editions/2025');
    expect(archived2025.figures).toMatchObject({ participants: FIGURES_2025.participants, teams: FIGURES_2025.teams, flowers: FIGURES_2025.blueFlowers });
    expect(Math.round(archived2025.figures.km)).toBe(FIGURES_2025.distance);

    // 2026 from 2025, with the route of its own uploaded as JSON: first with two missions swapped.
    await page.getByTestId('edition-plan-next').click();
    expect(await page.getByTestId('edition-field-year').inputValue()).toBe('2026');
    const route = structuredClone(edition2026Demo.route) as { lapLength: number; missions: unknown[] };
    const swapped = { ...route, missions: [route.missions[1], route.missions[0], ...route.missions.slice(2)] };
    // The upload is refused as it is read (its starts and ends disagree with the order), with the field.
    await page.getByTestId('edition-upload').setInputFiles({ name: 'route-2026.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(swapped)) });
    const problem = page.getByTestId('edition-problem').first();
    await problem.waitFor();
    expect(await problem.getAttribute('data-code')).toBe('EDITION_ROUTE_INVALID');
    expect(await problem.getAttribute('data-field')).toMatch(/^route\.missions\[0\]/);
    expect(text(await problem.textContent())).toContain(message('est', 'EDITION_ROUTE_INVALID'));

    await page.getByTestId('edition-upload').setInputFiles({ name: 'route-2026.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(route)) });
    await page.getByTestId('edition-uploaded').waitFor();
    await page.getByTestId('edition-save').click();
    await page.getByTestId('edition-saved').waitFor();
    const row = page.locator('[data-testid="edition-row"][data-year="2026"]');
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('planned');
    // A draft is not public.
    expect((await api<EditionsAnswer>('/editions')).next).toBeNull();

    await row.getByTestId('edition-open').click();
    await page.getByTestId('edition-confirm-yes').click();
    await page.locator('[data-testid="edition-row"][data-year="2026"][data-status="opened"]').waitFor();
    await page.context().close();

    const editions = await api<EditionsAnswer>('/editions');
    expect(editions.next).toMatchObject({ year: 2026, phase: 'upcoming' });
    expect(editions.archive.map((e) => e.year)).toEqual([2025]);
    const admin = await api<{ editions: { year: number; edition: { route: { lapLength: number; missions: unknown[] } } }[] }>('/admin/editions', await adminToken());
    expect(admin.editions.find((e) => e.year === 2026)!.edition.route).toEqual(route);
  });

  test('January 2026: the home says when 2026 opens and links the 2025 archive, in both languages', async () => {
    const opens = (await api<EditionsAnswer>('/editions')).next!.edition.registrationOpens;
    for (const lang of ['est', 'eng'] as const) {
      const { context, page } = await kit.newPage(lang);
      await page.goto(stack!.baseUrl);
      const next = page.getByTestId('edition-next');
      await next.waitFor();
      // The day as each language writes it: 01.02.2026 in Estonian, 1 February 2026 in English.
      const day = new Date(`${opens}T12:00:00Z`).toLocaleDateString(lang === 'est' ? 'et-EE' : 'en-GB', lang === 'est'
        ? { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }
        : { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
      expect(text(await next.textContent())).toContain(day);
      await page.getByTestId('home-archived-link').click();
      await page.waitForURL(/\/history\/2025$/);
      await page.getByTestId('archive-figures').waitFor();
      expect(digits(await page.getByTestId('archive-figure-participants').textContent())).toBe(FIGURES_2025.participants);
      expect(digits(await page.getByTestId('archive-figure-teams').textContent())).toBe(FIGURES_2025.teams);
      expect(digits(await page.getByTestId('archive-figure-flowers').textContent())).toBe(FIGURES_2025.blueFlowers);
      await context.close();
    }
  });

  test('April 2026: a 2025 participant joins with last year’s team name, pays and adds an entry', async () => {
    await clockAt('2026-04-10T12:00:00+03:00');
    const { context, page } = await kit.newPage('est');
    watchPositions(page);
    await kit.setPasswordByMail(page, returning.email, PASSWORD);
    await kit.login(page, returning.email, PASSWORD);
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto(`${stack!.baseUrl}/account`);
    const offer = page.getByTestId('join-edition');
    await offer.waitFor();
    expect(await offer.getAttribute('data-year')).toBe('2026');
    token = await page.evaluate('window.localStorage.getItem("token")') as string;
    const oldTeam = await api<{ team_name: string }>(`/team/${oldTeamId}`, token);
    expect(text(await offer.textContent())).toContain(oldTeam.team_name);
    // The default choice keeps last year's team.
    await page.getByTestId('join-edition-submit').click();
    const done = page.getByTestId('join-edition-done');
    await done.waitFor();
    newTeamId = Number(await done.getAttribute('data-team-id'));
    expect(newTeamId).not.toBe(oldTeamId);
    token = await page.evaluate('window.localStorage.getItem("token")') as string;
    const team = await api<{ team_name: string }>(`/team/${newTeamId}`, token);
    expect(team.team_name).toBe(oldTeam.team_name);
    participant2026 = (JSON.parse(Buffer.from(token.replace(/^Bearer /, '').split('.')[1]!, 'base64url').toString()) as { participantId: number }).participantId;
    expect(participant2026).not.toBe(returning.id);

    // The fee of 2026, through the sandbox.
    await page.getByTestId('join-edition-pay').click();
    await page.waitForURL(/\/pay$/);
    await page.getByTestId('pay-fee-form').waitFor();
    await page.getByTestId('pay-method').first().click();
    await page.getByTestId('pay-submit').click();
    await page.getByTestId('sandbox-succeed').click();
    await page.getByTestId('payment-success').waitFor();

    // An entry on the team page, within 2026's days.
    await page.goto(`${stack!.baseUrl}/team`);
    await page.getByTestId('add-entry').click();
    const dialog = page.getByTestId('entry-dialog');
    await dialog.waitFor();
    await page.fill('[data-testid="entry-distance"]', '12,4');
    await page.selectOption('[data-testid="entry-type"]', 'WALK');
    await page.fill('[data-testid="entry-performed-at"]', '2026-04-09');
    await page.getByTestId('entry-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    await context.close();

    // The spec's statistics and the home count 2026 only.
    await expect.poll(async () => (await api<StatsAnswer>('/stats')).totalDistance, { timeout: 15_000 }).toBe(12);
    const stats = await api<StatsAnswer>('/stats');
    expect(stats.totalParticipants).toBe(1);
    expect(stats.teams.map((t) => t.team.id)).toEqual([newTeamId]);
    for (const lang of ['est', 'eng'] as const) {
      const home = await kit.newPage(lang);
      await home.page.goto(stack!.baseUrl);
      await home.page.getByTestId('welcome-dates').waitFor();
      expect(text(await home.page.getByTestId('welcome-dates').textContent())).toContain('2026');
      expect(text(await home.page.locator('main').textContent())).not.toContain(String(FIGURES_2025.teams));
      await home.context.close();
    }
    // 2025's archive is as it was.
    expect(await api<HistoryAnswer>('/history/editions/2025')).toEqual(archived2025);
  });

  test('May 2026: the draw runs, 2026 closes, and both years’ certificates verify', async () => {
    await clockAt('2026-05-06T12:00:00+03:00');
    const page = await adminTab('est', 'draw');
    await page.getByTestId('admin-draw-new-seed').click();
    const seed = await page.getByTestId('admin-draw-seed').inputValue();
    await page.getByTestId('admin-draw-at').fill('2026-05-06T12:00');
    await page.getByTestId('admin-draw-winners').fill('1');
    await page.getByTestId('admin-draw-commit').click();
    await page.getByTestId('alert-success').first().waitFor();
    await page.getByTestId('admin-draw-reveal-seed').fill(seed);
    await page.getByTestId('admin-draw-reveal').click();
    await page.getByTestId('admin-draw-done').waitFor();
    const drawn = await api<{ status: string; eligibleCount: number; winners: unknown[] }>('/draw');
    // Only 2026's one paid participant with a flower is in 2026's draw.
    expect(drawn).toMatchObject({ status: 'drawn', eligibleCount: 1 });
    expect(drawn.winners).toHaveLength(1);

    await page.goto(`${stack!.baseUrl}/admin?tab=editions`);
    await page.getByTestId('edition-list').waitFor();
    await closeEdition(page, 2026);
    await page.context().close();
    const closed = await api<EditionsAnswer>('/editions');
    expect(closed.archive.map((e) => e.year)).toEqual([2026, 2025]);
    expect((await api<HistoryAnswer>('/history/editions/2026')).figures).toMatchObject({ participants: 1, teams: 1, km: 12.4 });

    // Certificates of both years, by the person's own session.
    const { context, page: person } = await kit.newPage('eng');
    await kit.login(person, returning.email, PASSWORD);
    await person.waitForURL((url) => url.pathname !== '/login');
    token = await person.evaluate('window.localStorage.getItem("token")') as string;
    await context.close();
    const codes: string[] = [];
    for (const id of [participant2026, returning.id]) {
      const answer = await fetch(`${stack!.baseUrl}/api/participant/${id}/certificate.pdf`, { headers: { authorization: token, 'idempotency-key': randomUUID() } });
      expect(answer.status, `certificate of participant ${id}`).toBe(200);
      codes.push(await codeOf(new Uint8Array(await answer.arrayBuffer())));
    }
    expect(codes[0]).not.toBe(codes[1]);
    for (const [index, code] of codes.entries()) {
      const visitor = await kit.newPage(index === 0 ? 'eng' : 'est');
      await visitor.page.goto(`${stack!.baseUrl}/verify/${code}`);
      await visitor.page.getByTestId('verify-valid').waitFor();
      expect(text(await visitor.page.getByTestId('verify-code').textContent())).toBe(code);
      await visitor.context.close();
    }
  });
});

/** An administrator's bearer token, by the API's own login (spec §7 POST /login). */
async function adminToken(): Promise<string> {
  const answer = await fetch(`${stack!.baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(E2E_ADMIN) });
  return `Bearer ${((await answer.json()) as { token: string }).token}`;
}
