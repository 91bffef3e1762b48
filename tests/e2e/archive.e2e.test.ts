/**
 * Editions' life cycle on the public site, in headless Chromium against `npm start` (the 2025
 * export imported; the app's clock on 1 June 2025, after the draw, on a stack of its own because
 * the file closes 2025): while 2025 waits to be closed the home shows it as the spec has it; once
 * the administrator closes it and announces 2026, the home says when 2026's registration opens (in
 * the page's language) and shows 2025's results as archived with a link to /history/2025, which
 * shows the final figures, the teams, the route map and the draw as GET
 * /api/history/editions/2025 answers them; /history lists the archived edition above the
 * 2021–2024 texts; a year not in the archive says so.
 */
import { randomUUID } from 'node:crypto';
import { edition2026Demo } from '@sinilill/domain/seed';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { e2eKit, type Lang } from '../support/e2e-kit';
import type { RunningStack } from '../support/stack';
import { E2E_ADMIN, sharedStack, E2E_STACKS } from '../support/shared-stack';

let stack: RunningStack;
let browser: Browser;
let adminToken = '';
const kit = e2eKit(() => stack, () => browser);

const text = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

async function api<T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(`${stack.baseUrl}/api${path}`, {
    ...init,
    headers: {
      ...(adminToken ? { authorization: adminToken } : {}),
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.method && init.method !== 'GET' ? { 'idempotency-key': randomUUID() } : {}),
    },
  });
  const raw = await response.text();
  return { status: response.status, body: (raw ? JSON.parse(raw) : null) as T };
}

interface HistoryAnswer {
  figures: { participants: number; teams: number; km: number; flowers: number; raisedCents: number };
  teams: { teamName: string }[];
  draw: { winners: { teamName: string; participantName: string | null }[] } | null;
}

beforeAll(async () => {
  [stack, browser] = await Promise.all([sharedStack(E2E_STACKS.june1), launchBrowser()]);
  const login = await api<{ token: string }>('/login', { method: 'POST', body: JSON.stringify(E2E_ADMIN) });
  expect(login.status).toBe(200);
  adminToken = `Bearer ${login.body.token}`;
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('the editions on the public site', () => {
  test('before 2025 is closed the home shows it, after its draw', async () => {
    const { context, page } = await kit.newPage('est');
    await page.goto(stack.baseUrl);
    const notice = page.getByTestId('edition-phase');
    await notice.waitFor();
    expect(await notice.getAttribute('data-phase')).toBe('afterDraw');
    expect(text(await notice.textContent())).toContain('Sinilill 2025 on lõppenud');
    expect(await page.getByTestId('home-archive-link').getAttribute('href')).toBe('/history');
    await context.close();
  });

  test('the administrator closes 2025 and announces 2026', async () => {
    expect((await api('/admin/editions/2025/close', { method: 'POST' })).status).toBe(200);
    const planned = await api('/admin/editions', { method: 'POST', body: JSON.stringify(edition2026Demo) });
    expect(planned.status).toBe(201);
    expect((await api('/admin/editions/2026/open', { method: 'POST' })).status).toBe(200);
    // The read side follows once the projection has the edition events.
    type Answer = { current: { year: number; status: string } | null; next: { year: number } | null; archive: { year: number }[] };
    await expect.poll(async () => (await api<Answer>('/editions')).body.next?.year, { timeout: 20_000 }).toBe(2026);
    const editions = await api<Answer>('/editions');
    expect(editions.body.current).toMatchObject({ year: 2025, status: 'closed' });
    expect(editions.body.archive.map((view) => view.year)).toEqual([2025]);
  });

  const OPENS: Record<Lang, string> = {
    est: 'Sinilill 2026 registreerumine algab 01.03.2026',
    eng: 'Registration for Sinilill 2026 opens on 1 March 2026',
  };
  const ARCHIVED: Record<Lang, string> = { est: 'Sinilill 2025 tulemused', eng: 'Results of Sinilill 2025' };

  for (const lang of ['est', 'eng'] as const) {
    test(`${lang}: between editions the home says when 2026 opens and links 2025's archive page`, async () => {
      const { context, page } = await kit.newPage(lang);
      await page.goto(stack.baseUrl);
      const next = page.getByTestId('edition-next');
      await next.waitFor();
      expect(await next.getAttribute('data-year')).toBe('2026');
      expect(text(await next.textContent())).toContain(OPENS[lang]);
      expect(await page.getByTestId('edition-phase').count()).toBe(0);
      const archived = page.getByTestId('home-archived');
      expect(text(await archived.textContent())).toContain(ARCHIVED[lang]);
      await page.getByTestId('home-archived-link').click();
      await page.waitForURL(/\/history\/2025$/);
      await page.getByTestId('archive-page').waitFor();
      await context.close();
    });
  }

  test('/history/2025 shows the final figures, the teams, the route map and the draw', async () => {
    const answer = await api<HistoryAnswer>('/history/editions/2025');
    expect(answer.status).toBe(200);
    const { figures, teams, draw } = answer.body;
    const { context, page } = await kit.newPage('eng');
    await page.goto(`${stack.baseUrl}/history/2025`);
    await page.getByTestId('archive-figures').waitFor();
    const spaced = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
    expect(text(await page.getByTestId('archive-figure-participants').textContent())).toBe(spaced(figures.participants));
    expect(text(await page.getByTestId('archive-figure-teams').textContent())).toBe(spaced(figures.teams));
    expect(text(await page.getByTestId('archive-figure-flowers').textContent())).toBe(spaced(figures.flowers));
    // km with at most two decimals, a decimal point in English.
    const [whole = '', decimals] = figures.km.toFixed(2).replace(/\.00$/, '').split('.');
    expect(text(await page.getByTestId('archive-figure-km').textContent())).toBe(`${spaced(Number(whole))}${decimals ? `.${decimals}` : ''} km`);
    const rows = page.getByTestId('archive-teams-table-row');
    await rows.first().waitFor();
    expect(text(await rows.first().textContent())).toContain(teams[0]!.teamName);
    await page.getByTestId('route-map-svg').waitFor();
    if (draw === null) await page.getByTestId('archive-no-draw').waitFor();
    else if (draw.winners.length === 0) await page.getByTestId('archive-no-winners').waitFor();
    else expect(await page.getByTestId('archive-winners').locator('li').count()).toBe(draw.winners.length);
    await context.close();
  });

  test('/history lists 2025 above the earlier years; a year not archived says so', async () => {
    const { context, page } = await kit.newPage('est');
    await page.goto(`${stack.baseUrl}/history`);
    const link = page.getByTestId('history-archive-2025');
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('/history/2025');
    expect(text(await link.textContent())).toBe('Sinilill 2025 tulemused');
    await page.getByTestId('history-year-2021').waitFor();
    await page.goto(`${stack.baseUrl}/history/2031`);
    await page.getByTestId('archive-not-found').waitFor();
    await context.close();
  });
});
