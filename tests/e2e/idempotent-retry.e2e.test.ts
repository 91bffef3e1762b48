/**
 * Idempotent clients, in headless Chromium against `npm start` (the 2025 export
 * imported; the clock on 2 May 2025, inside the late-entry window, as team.e2e's). An imported
 * participant adds an entry on the team page; the first POST /api/entry reaches the server — which
 * appends the entry — but its answer is dropped (route interception: `route.fetch()`, then
 * `route.abort('connectionreset')`), so the page sees a network failure. The web client sends the
 * same request again with the same `idempotency-key`, the server answers it as the first one and
 * appends nothing: the page shows the entry once, the team's entries (the query API) hold one new
 * entry, and the log one EntryAdded under the command id `<userId>:<key>`.
 */
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { EntryAnswer, TeamEntriesAnswer } from '@sinilill/contracts';
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

/** Participant 13 of the 2025 export (Mari Kask, team 2, paid): the team page after login. */
const person = fixturePeople().find((p) => p.id === 13)!;
const PASSWORD = 'Sinilill jookseb aprillis 2025';
const DISTANCE = '37.19'; // no entry of the export has it (checked below)
/** DISTANCE as the Estonian page writes it, with a decimal comma. */
const SHOWN = '37,19';

const tokenOf = async (page: Page) => (await page.evaluate('window.localStorage.getItem("token")')) as string;

/** The team's entries from the query API, once its read models reached `position` (x-min-position). */
async function entriesOf(token: string, position = 0): Promise<TeamEntriesAnswer> {
  const response = await fetch(`${stack.baseUrl}/api/team/${person.teamId}/entries`, {
    headers: { authorization: token, ...(position > 0 ? { 'x-min-position': String(position) } : {}) },
  });
  expect(response.status).toBe(200);
  return await response.json() as TeamEntriesAnswer;
}

describe('a command whose answer was lost counts once', () => {
  test('add-entry: the first answer dropped, the client retries with the same idempotency key; one entry', async () => {
    const { context, page } = await kit.newPage('est', 1440);
    await kit.setPasswordByMail(page, person.email, PASSWORD);
    await kit.login(page, person.email, PASSWORD);
    await page.waitForURL(/\/team$/);
    await page.getByTestId('team-card').waitFor();
    const token = await tokenOf(page);
    const before = await entriesOf(token);
    expect(before.filter((e) => e.distance.toFixed(2) === DISTANCE)).toEqual([]);

    // The first POST /api/entry reaches the server; its answer never reaches the page.
    const sent: { key: string | undefined; answer: 'dropped' | 'passed' }[] = [];
    let first: { status: number; body: EntryAnswer } | undefined;
    await page.route((url) => url.pathname === '/api/entry', async (route) => {
      const request = route.request();
      if (request.method() !== 'POST') return route.continue();
      const key = (await request.allHeaders())['idempotency-key'];
      if (first !== undefined) {
        sent.push({ key, answer: 'passed' });
        return route.continue();
      }
      const response = await route.fetch();
      first = { status: response.status(), body: await response.json() as EntryAnswer };
      sent.push({ key, answer: 'dropped' });
      await route.abort('connectionreset');
    });
    const retried = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/entry' && r.request().method() === 'POST');

    await page.getByTestId('add-entry').click();
    const dialog = page.getByTestId('entry-dialog');
    await dialog.waitFor();
    expect(await page.getByTestId('entry-member').inputValue()).toBe(String(person.id));
    await page.fill('[data-testid="entry-distance"]', DISTANCE);
    await page.selectOption('[data-testid="entry-type"]', 'WALK');
    await page.fill('[data-testid="entry-performed-at"]', '2025-04-29');
    await page.getByTestId('entry-submit').click();
    await dialog.waitFor({ state: 'hidden' });

    // The server took the first request; the page sent it once more, with the same key, and got
    // the first answer back (the same entry, the same position).
    const retry = await retried;
    expect(first?.status).toBe(200);
    expect(sent.map((s) => s.answer)).toEqual(['dropped', 'passed']);
    expect(sent[0]!.key).toMatch(/^[A-Za-z0-9_.:-]{8,100}$/);
    expect(sent[1]!.key).toBe(sent[0]!.key);
    expect(retry.status()).toBe(200);
    const repeated = await retry.json() as EntryAnswer;
    expect(repeated.entry).toEqual(first!.body.entry);
    expect(repeated.position).toBe(first!.body.position);

    // One new entry: in the query API, in the log, and on the page.
    const after = await entriesOf(token, repeated.position);
    const known = new Set(before.map((e) => e.id));
    const added = after.filter((e) => !known.has(e.id));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ id: repeated.entry.id, participant_id: person.id, distance: Number(DISTANCE), entry_type: 'WALK' });
    expect(after).toHaveLength(before.length + 1);
    const userId = decodeJwt(token.slice('Bearer '.length)).userId as string;
    const logged = await kit.withDatabase(async (client) => (await client.query(
      `SELECT count(*)::int AS n FROM es.events WHERE type = 'EntryAdded' AND metadata->>'commandId' = $1`, [`${userId}:${sent[0]!.key}`],
    )).rows[0].n as number);
    expect(logged).toBe(1);

    const rows = page.getByTestId('entries-table-row');
    await expect.poll(async () => (await rows.first().textContent()) ?? '').toContain(SHOWN);
    expect(await page.locator(`[data-testid="entries-table-row"][data-row-id="${repeated.entry.id}"]`).count()).toBe(1);
    expect((await rows.allTextContents()).filter((row) => row.includes(SHOWN))).toHaveLength(1);
    await context.close();
  });
});
