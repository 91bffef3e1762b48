/**
 * Strava in the browser, against `npm start` at the tests' default clock (30 April 2025, the
 * 2025 edition's last day: STRAVA_STACK, the shared stack whose Strava the stand-in is) and the
 * run's Strava stand-in (tests/support/strava-e2e.ts: Strava's API, OAuth and webhook events as
 * Strava's published description has them, approving every authorization at once). Three paid
 * members of one team, which no other file uses:
 *
 * - A connects with "add automatically": the two activities already on Strava inside the
 *   edition's days come in as entries (the backfill), the one before the edition does not; one of
 *   March uploaded now is skipped and counted on the account page; an activity created, updated
 *   and deleted on Strava appears, changes and goes on the team page without a reload; the same events delivered again change nothing; a burst of 429s delays the
 *   work and loses none of it. A disconnects: the page says so, the API answers 'disconnected'
 *   and Strava hears no more calls for A's activities.
 * - B (in English) connects with "let me confirm each": B's activity waits on the account page,
 *   is confirmed with another type and becomes an entry; a new one is dismissed. B then revokes
 *   the app on Strava's side: the page says so, the tokens are gone ('deauthorized'), and no call
 *   for B follows.
 * - C connects and erases the account from the page: the connection's row is gone from the
 *   database and no call for C follows. A connects again: the backfill brings what Strava got
 *   meanwhile, and nothing twice.
 */
import AxeBuilder from '@axe-core/playwright';
import { decodeJwt } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ParticipantContributionsAnswer } from '@sinilill/contracts';
import { launchBrowser } from '../support/browser';
import { e2eKit, type Lang } from '../support/e2e-kit';
import { fixturePeople } from '../support/app';
import type { RunningStack } from '../support/stack';
import { E2E_STACKS, sharedStack } from '../support/shared-stack';
import { stravaControl, type StravaControl } from '../support/strava-e2e';
import type { DetailedActivity, StravaEvent } from '../support/strava-stand-in';

let stack: RunningStack;
let browser: Browser;
let strava: StravaControl;
const kit = e2eKit(() => stack, () => browser);

beforeAll(async () => {
  [stack, browser] = await Promise.all([sharedStack(E2E_STACKS.april30), launchBrowser()]);
  strava = stravaControl();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const teamId = 117;
const [personA, personB, personC] = fixturePeople().filter((p) => p.teamId === teamId && p.isPaid).slice(1);
const PASSWORD = 'Strava e2e parool 2025!';

/** How long webhook-driven work may take to show: the queue, the projector and the page's own refresh (5 s). */
const FOLLOW_MS = 45_000;

const text = (s: string | null) => (s ?? '').replace(/\s/g, ' ').trim();
/** km as the Estonian pages write them (decimal comma). */
const kmEt = (value: number) => value.toFixed(2).replace('.', ',');

interface Session {
  page: Page; token: string; participantId: number; fullName: string;
  /** The km of the entries the person had from the 2025 import, before Strava. */
  imported: number[];
}

/** Sets the person's first password by mail, logs in (paid: lands on /team) and reads who they are. */
async function signIn({ email, fullName }: { email: string; fullName: string }, lang: Lang): Promise<Session> {
  const { page } = await kit.newPage(lang, 1280);
  await kit.setPasswordByMail(page, email, PASSWORD);
  await kit.login(page, email, PASSWORD);
  await page.waitForURL(/\/team$/);
  const token = await page.evaluate('window.localStorage.getItem("token")') as string;
  const participantId = decodeJwt(token.replace(/^Bearer /, '')).participantId as number;
  const session: Session = { page, token, participantId, fullName, imported: [] };
  session.imported = await allKmOf(session);
  return session;
}

async function api<T>(path: string, token: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(`${stack.baseUrl}/api${path}`, {
    ...init, headers: { authorization: token, ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });
  return { status: response.status, body: await response.json().catch(() => null) as T };
}

interface StravaAnswer {
  available: boolean;
  connection: null | { athleteId: number; mode: string; status: string };
  proposals: { activityId: number; distance: number; performedAt: string }[];
}

const stravaOf = async (session: Session) => (await api<StravaAnswer>('/me/strava', session.token)).body;

/** The participant's live entries' km, as the read side has them, smallest first. */
async function allKmOf(session: Session): Promise<number[]> {
  const { body } = await api<ParticipantContributionsAnswer>(`/participant/${session.participantId}/contributions`, session.token);
  return body.contributions.map((row) => row.distance).sort((a, b) => a - b);
}

/** The km of the participant's live entries made since signing in (the imported ones taken out once each), smallest first. */
async function kmOf(session: Session): Promise<number[]> {
  const left = [...session.imported];
  return (await allKmOf(session)).filter((km) => {
    const at = left.indexOf(km);
    if (at === -1) return true;
    left.splice(at, 1);
    return false;
  });
}

/**
 * How many rows of the team page's entries table show `km` for `session`'s person: the table's
 * search narrows it to that km (the team has many imported entries over several pages).
 */
async function rowsShowing(session: Session, km: number): Promise<number> {
  const search = session.page.getByTestId('entries-table-search');
  if ((await search.inputValue()) !== kmEt(km)) await search.fill(kmEt(km));
  const rows = (await session.page.getByTestId('entries-table-row').allTextContents()).map(text);
  return rows.filter((row) => row.startsWith(kmEt(km)) && row.includes(session.fullName)).length;
}

/** An activity as Strava would hold it, `km` long, started at 08:00 on `day` in Tallinn (UTC+3 in April). */
function activity(name: string, sport: string, km: number, day: string): Partial<DetailedActivity> {
  return {
    name, sport_type: sport, type: sport, distance: km * 1000, moving_time: Math.round(km * 360), elapsed_time: Math.round(km * 380),
    start_date: `${day}T05:00:00Z`, start_date_local: `${day}T08:00:00Z`, timezone: '(GMT+02:00) Europe/Tallinn', utc_offset: 10_800,
    trainer: false, commute: false, manual: false, private: false,
  };
}

/** axe-core's serious and critical violations inside the Strava section (WCAG 2.0–2.2 A/AA), as in my-data.e2e.test.ts. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include('[data-testid="strava"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).setLegacyMode(true).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/**
 * Connects Strava from the account page with `mode` as `athleteId` (signed in on Strava in this
 * browser): Strava (the stand-in) approves and sends the browser back.
 */
async function connect(session: Session, mode: 'auto' | 'confirm', athleteId: number): Promise<void> {
  const { page } = session;
  await strava.signIn(athleteId);
  await page.goto(`${stack.baseUrl}/account`);
  const section = page.getByTestId('strava');
  await section.waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await section.locator(`input[name="strava-mode"][value="${mode}"]`).check();
  await section.getByTestId('strava-connect').click();
  await page.waitForURL(/\/account$/, { timeout: 30_000 });
  // The callback's ?strava=connected is said once (role=status) and taken off the address.
  const returned = page.getByTestId('strava-return');
  await returned.waitFor();
  expect(await returned.getAttribute('data-outcome')).toBe('connected');
  expect(await returned.getAttribute('role')).toBe('status');
  await expect.poll(() => section.getAttribute('data-status'), { timeout: FOLLOW_MS }).toBe('connected');
}

/** The stand-in's calls for one activity (its GET /activities/{id}). */
async function callsFor(activityId: number): Promise<number> {
  return (await strava.requests()).filter((r) => r.path.startsWith(`/api/v3/activities/${activityId}`)).length;
}

/** The newest webhook event the stand-in sent about `activityId` with `aspect`. */
async function eventOf(activityId: number, aspect: StravaEvent['aspect_type']): Promise<StravaEvent> {
  const found = (await strava.events()).filter((e) => e.object_type === 'activity' && e.object_id === activityId && e.aspect_type === aspect).at(-1);
  if (!found) throw new Error(`the stand-in sent no ${aspect} event for ${activityId}`);
  return found;
}

describe('Strava', () => {
  let a: Session;
  let b: Session;
  let c: Session;
  let athleteA: number;
  let athleteB: number;
  let athleteC: number;

  test('connected with "add automatically": the backfill, then created, updated and deleted activities follow on the team page', async () => {
    // The stack subscribed to Strava's webhook events as it started (its STRAVA_* are the stand-in's).
    await expect.poll(async () => (await strava.subscription())?.callback_url, { timeout: 30_000 }).toBe(`${stack.baseUrl}/api/strava/webhook`);
    athleteA = (await strava.addAthlete({ firstname: 'Epp', lastname: 'Sild' })).id;
    // Already on Strava before connecting: two inside the edition's days, one before them.
    await strava.createActivity(athleteA, activity('Hommikujooks', 'Run', 5.01, '2025-04-20'), { notify: false });
    await strava.createActivity(athleteA, activity('Rattaga tööle', 'Ride', 20.5, '2025-04-25'), { notify: false });
    await strava.createActivity(athleteA, activity('Talvine matk', 'Hike', 9.99, '2025-03-15'), { notify: false });

    a = await signIn(personA!, 'est');
    await connect(a, 'auto', athleteA);
    expect(await stravaOf(a)).toMatchObject({ available: true, connection: { athleteId: athleteA, mode: 'auto', status: 'connected' } });
    await expect.poll(() => kmOf(a), { timeout: FOLLOW_MS }).toEqual([5.01, 20.5]);
    // Reloading does not say "connected" again: the address lost ?strava=.
    await a.page.reload();
    await a.page.getByTestId('strava-athlete').waitFor();
    expect(await a.page.getByTestId('strava-return').count()).toBe(0);

    await a.page.goto(`${stack.baseUrl}/team`);
    await a.page.getByTestId('entries-table').waitFor();
    await expect.poll(() => rowsShowing(a, 20.5), { timeout: FOLLOW_MS }).toBe(1);
    expect(await rowsShowing(a, 5.01)).toBe(1);

    // A March activity uploaded now: outside the edition's days, skipped, and the account page says so.
    await strava.createActivity(athleteA, activity('Märtsikuu matk', 'Hike', 8.88, '2025-03-20'));
    await a.page.goto(`${stack.baseUrl}/account`);
    await expect.poll(async () => text(await a.page.getByTestId('strava-skipped').textContent({ timeout: 1_000 }).catch(() => '')), { timeout: FOLLOW_MS })
      .toContain('1 Strava tegevus jäi vahele.');
    expect(await kmOf(a)).toEqual([5.01, 20.5]);
    await a.page.goto(`${stack.baseUrl}/team`);
    await a.page.getByTestId('entries-table').waitFor();

    // Created on Strava: the webhook brings it to the open page without a reload.
    const walk = await strava.createActivity(athleteA, activity('Õhtune jalutuskäik', 'Walk', 3.33, '2025-04-28'));
    await expect.poll(() => rowsShowing(a, 3.33), { timeout: FOLLOW_MS }).toBe(1);
    // Updated on Strava (Strava sends an update event for a new title or type, and the app reads
    // the whole activity again): the same entry changes its km and type.
    await strava.updateActivity(walk.id, { name: 'Õhtune jooks', sport_type: 'Run', type: 'Run', distance: 4440 });
    await expect.poll(() => rowsShowing(a, 4.44), { timeout: FOLLOW_MS }).toBe(1);
    expect(await rowsShowing(a, 3.33)).toBe(0);
    const { body: updated } = await api<ParticipantContributionsAnswer>(`/participant/${a.participantId}/contributions`, a.token);
    expect(updated.contributions.filter((row) => row.distance === 4.44).map((row) => row.entryType)).toEqual(['OUTDOOR_RUN']);
    expect(await kmOf(a)).toEqual([4.44, 5.01, 20.5]);

    // Strava delivers the same create and update again: nothing changes. A marker activity made
    // after them shows that the queue has reached past the second deliveries.
    expect(await strava.deliver(await eventOf(walk.id, 'create'))).toBe(200);
    expect(await strava.deliver(await eventOf(walk.id, 'update'))).toBe(200);
    await strava.createActivity(athleteA, activity('Märkjooks', 'Run', 1.23, '2025-04-29'));
    await expect.poll(() => kmOf(a), { timeout: FOLLOW_MS }).toEqual([1.23, 4.44, 5.01, 20.5]);

    // Deleted on Strava: the entry goes.
    await strava.removeActivity(walk.id);
    await expect.poll(() => rowsShowing(a, 4.44), { timeout: FOLLOW_MS }).toBe(0);
    expect(await kmOf(a)).toEqual([1.23, 5.01, 20.5]);
  });

  // Each 429 holds the queue for the app's burst wait (10 s) before the job is tried again.
  test('a burst of 429s from Strava delays the work and loses none of it', { timeout: 240_000 }, async () => {
    const before = (await strava.requests()).length;
    await strava.burst429(3);
    const first = await strava.createActivity(athleteA, activity('Vihmane jooks', 'Run', 6.06, '2025-04-29'));
    const second = await strava.createActivity(athleteA, activity('Virtuaalsõit', 'VirtualRide', 15.15, '2025-04-30'));
    await expect.poll(() => kmOf(a), { timeout: 180_000 }).toEqual([1.23, 5.01, 6.06, 15.15, 20.5]);
    const calls = (await strava.requests()).slice(before);
    // Strava refused some calls; each activity was still read once it let the app through.
    expect(calls.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(1);
    for (const id of [first.id, second.id]) {
      expect(calls.some((r) => r.path.startsWith(`/api/v3/activities/${id}`) && r.status === 200)).toBe(true);
    }
    await expect.poll(() => rowsShowing(a, 15.15), { timeout: FOLLOW_MS }).toBe(1);
  });

  test('"let me confirm each": an activity waits on the account page, is confirmed with another type, a new one is dismissed', async () => {
    athleteB = (await strava.addAthlete({ firstname: 'Merle', lastname: 'Aavik' })).id;
    const swim = await strava.createActivity(athleteB, activity('Morning swim', 'Swim', 1.5, '2025-04-22'), { notify: false });
    b = await signIn(personB!, 'eng');
    await connect(b, 'confirm', athleteB);
    const section = b.page.getByTestId('strava');
    const proposal = section.locator(`[data-testid="strava-proposal"][data-activity-id="${swim.id}"]`);
    await proposal.waitFor({ timeout: FOLLOW_MS });
    expect(text(await proposal.textContent())).toContain('1.50 km');
    expect(await seriousViolations(b.page)).toEqual([]);
    expect(text(await proposal.getByTestId('strava-proposal-day').textContent())).toBe('22 April 2025');
    expect(await kmOf(b)).toEqual([]);

    await proposal.getByTestId('strava-proposal-type').selectOption('WALK');
    await proposal.getByTestId('strava-proposal-confirm').click();
    await proposal.waitFor({ state: 'detached', timeout: FOLLOW_MS });
    await expect.poll(() => kmOf(b), { timeout: FOLLOW_MS }).toEqual([1.5]);
    const { body } = await api<ParticipantContributionsAnswer>(`/participant/${b.participantId}/contributions`, b.token);
    // The confirmed activity, as a walk on its own day.
    expect(body.contributions.filter((row) => row.distance === 1.5 && row.entryType === 'WALK' && row.performedAt === '2025-04-22')).toHaveLength(b.imported.filter((km) => km === 1.5).length + 1);

    // A new activity arrives while the page is open (no reload) and is dismissed.
    const ride = await strava.createActivity(athleteB, activity('Evening ride', 'Ride', 12.34, '2025-04-29'));
    const next = section.locator(`[data-testid="strava-proposal"][data-activity-id="${ride.id}"]`);
    await next.waitFor({ timeout: FOLLOW_MS });
    await next.getByTestId('strava-proposal-dismiss').click();
    await next.waitFor({ state: 'detached', timeout: FOLLOW_MS });
    expect((await stravaOf(b)).proposals).toEqual([]);
    expect(await kmOf(b)).toEqual([1.5]);
  });

  test('disconnecting on the page stops it: the page and the API say so, Strava hears no more calls for A', async () => {
    await a.page.goto(`${stack.baseUrl}/account`);
    await a.page.getByTestId('strava-disconnect').click();
    await a.page.getByTestId('strava-disconnected').waitFor();
    await a.page.getByTestId('strava-connect').waitFor();
    expect((await stravaOf(a)).connection).toMatchObject({ athleteId: athleteA, status: 'disconnected' });
    // The app revoked its access at Strava: no token of A is alive there.
    expect(await strava.tokensOf(athleteA)).toEqual([]);

    const unseen = await strava.createActivity(athleteA, activity('Pärast lahtiühendamist', 'Run', 7.07, '2025-04-30'));
    // B is still connected: B's activity, made after A's, shows the events were handled.
    const marker = await strava.createActivity(athleteB, activity('Marker walk', 'Walk', 2.22, '2025-04-30'));
    await expect.poll(async () => (await stravaOf(b)).proposals.map((p) => p.activityId), { timeout: FOLLOW_MS }).toContain(marker.id);
    expect(await callsFor(unseen.id)).toBe(0);
    expect(await kmOf(a)).toEqual([1.23, 5.01, 6.06, 15.15, 20.5]);
  });

  test('revoked on Strava\'s side: the page says so, the tokens are gone and no call for B follows', async () => {
    athleteC = (await strava.addAthlete({ firstname: 'Rasmus', lastname: 'Järv' })).id;
    c = await signIn(personC!, 'est');
    await connect(c, 'auto', athleteC);

    await b.page.goto(`${stack.baseUrl}/account`);
    await b.page.getByTestId('strava-athlete').waitFor();
    await strava.deauthorize(athleteB);
    // The open page finds out by itself (it reads the link again while connected).
    await b.page.getByTestId('strava-deauthorized').waitFor({ timeout: FOLLOW_MS });
    await b.page.getByTestId('strava-connect').waitFor();
    expect((await stravaOf(b)).connection).toMatchObject({ athleteId: athleteB, status: 'deauthorized' });
    expect(await strava.tokensOf(athleteB)).toEqual([]);

    const unseen = await strava.createActivity(athleteB, activity('After revoking', 'Run', 8.08, '2025-04-30'));
    const marker = await strava.createActivity(athleteC, activity('Märkkõnd', 'Walk', 3.03, '2025-04-30'));
    await expect.poll(() => kmOf(c), { timeout: FOLLOW_MS }).toEqual([3.03]);
    expect(await callsFor(unseen.id)).toBe(0);
    expect(await callsFor(marker.id)).toBeGreaterThanOrEqual(1);
  });

  test('erasing the account drops the connection: no row left, no call for C follows', async () => {
    const rowsOf = (athleteId: number) => kit.withDatabase(async (db) => {
      // The connections' table is found by its name and athlete column, not hard-coded here.
      const tables = await db.query<{ table_schema: string; table_name: string; column_name: string }>(
        `SELECT table_schema, table_name, column_name FROM information_schema.columns
          WHERE table_name ILIKE '%strava%' AND column_name IN ('athlete_id', 'athleteId')`);
      expect(tables.rows.length).toBeGreaterThan(0);
      let count = 0;
      for (const { table_schema, table_name, column_name } of tables.rows) {
        const found = await db.query<{ n: string }>(`SELECT count(*) AS n FROM "${table_schema}"."${table_name}" WHERE "${column_name}" = $1`, [athleteId]);
        count += Number(found.rows[0]!.n);
      }
      return count;
    });
    expect(await rowsOf(athleteC)).toBeGreaterThan(0);

    await c.page.goto(`${stack.baseUrl}/account`);
    await c.page.getByTestId('my-data-erase').click();
    await c.page.getByTestId('erase-dialog').locator('[name="password"]').fill(PASSWORD);
    await c.page.getByTestId('erase-dialog-yes').click();
    await c.page.getByTestId('erase-dialog').waitFor({ state: 'hidden' });
    await expect.poll(() => rowsOf(athleteC), { timeout: FOLLOW_MS }).toBe(0);

    const unseen = await strava.createActivity(athleteC, activity('Pärast kustutamist', 'Run', 4.04, '2025-04-30'));
    // A connects again: the page's connect button resumes, the backfill brings what Strava got
    // meanwhile (7.07) and nothing twice; A's marker, made after C's event, shows the events were handled.
    await connect(a, 'auto', athleteA);
    await expect.poll(() => kmOf(a), { timeout: FOLLOW_MS }).toEqual([1.23, 5.01, 6.06, 7.07, 15.15, 20.5]);
    await strava.createActivity(athleteA, activity('Märkjooks uuesti', 'Run', 2.02, '2025-04-30'));
    await expect.poll(() => kmOf(a), { timeout: FOLLOW_MS }).toEqual([1.23, 2.02, 5.01, 6.06, 7.07, 15.15, 20.5]);
    expect(await callsFor(unseen.id)).toBe(0);
  });
});
