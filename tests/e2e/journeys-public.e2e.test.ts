/**
 * The public pages, searches and tables as a visitor walks them, in headless Chromium against
 * `npm start` (the 2025 export imported), in Estonian and in English. One stack, its clock on
 * 30 April 2025 at noon (Tallinn): stories written for May are in the content files, the draw
 * is still to come.
 *
 * - /verify has a labelled field: a code typed in it names the person it certifies; a wrong one
 *   says no certificate has it and where the code is printed; an empty field says what to type
 *   (360 px).
 * - Searches fold case and diacritics: "voru" finds what "Võru" finds in the participants table
 *   and in the console's users and teams tabs; a search that finds nothing says what was searched
 *   and offers to clear it (1440 px).
 * - Stories are not listed (nor served) before their publication time; the draw page says when
 *   the draw takes place (1440 px).
 * - The participants table's page and sort live in the address: a reload and the back button
 *   show the same rows.
 * - Figures say one thing each: the home page's missing-flowers box has one flower figure and
 *   no "1 + 24" sum (1440 px); the share page of a team past its first lap names the lap its
 *   missions belong to, in its text and its image's alternative text (360 px).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import { repoRoot } from '@sinilill/config';
import { certificateCode } from '@sinilill/certificates';
import type { NewsAnswer, StatsAnswer } from '@sinilill/contracts';
import { teamProgress } from '@sinilill/domain';
import { edition2025 } from '@sinilill/domain/seed';
import { launchBrowser } from '../support/browser';
import { e2eKit, message, type Lang } from '../support/e2e-kit';
import type { RunningStack } from '../support/stack';
import { E2E_ADMIN, E2E_JWT_SECRET, sharedStack, E2E_STACKS } from '../support/shared-stack';
import { fixturePeople } from '../support/app';

const ADMIN = E2E_ADMIN;
/** The stack's token secret, given so that the test can sign a genuine certificate code. */
const JWT_SECRET = E2E_JWT_SECRET;
const CLOCK_START = E2E_STACKS.april30.CLOCK_START;
const LANGS = ['est', 'eng'] as const;

let stack: RunningStack;
let browser: Browser;
const kit = e2eKit(() => stack, () => browser);

beforeAll(async () => {
  [stack, browser] = await Promise.all([
    sharedStack(E2E_STACKS.april30),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 });
const text = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();
const fileLang = (lang: Lang) => (lang === 'est' ? 'et' : 'en');

/** A text of a locale file (path under web/src, without the language) in `lang`, {{values}} filled in. */
function locale(file: string, key: string, lang: Lang, values: Record<string, string> = {}): string {
  const texts = JSON.parse(readFileSync(join(repoRoot, 'web/src', file, `${fileLang(lang)}.json`), 'utf8')) as Record<string, unknown>;
  const found = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], texts);
  if (typeof found !== 'string') throw new Error(`no ${lang} text for ${file} ${key}`);
  return found.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => values[name] ?? '');
}

async function api<T>(path: string, token: string | null = null, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(`${stack.baseUrl}/api${path}`, {
    ...init,
    headers: { ...(token ? { authorization: token } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });
  return { status: response.status, body: await response.json().catch(() => null) as T };
}

/** A paged read of the API: the row ids in order and the total. */
async function paged(path: string, query: Record<string, string | number>, token: string | null = null): Promise<{ ids: string[]; total: number }> {
  const search = Object.entries(query).map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`).join('&');
  const answer = await api<{ rows: ({ id: string | number } | { team: { id: number } })[]; total: number }>(`${path}?${search}`, token);
  expect(answer.status).toBe(200);
  return { ids: answer.body.rows.map((row) => String('team' in row ? row.team.id : row.id)), total: answer.body.total };
}

const shownIds = (rows: Locator, attribute: string) => rows.evaluateAll((all, name) => all.map((row) => row.getAttribute(name as string) ?? ''), attribute);

describe('/verify has a field to type a certificate code (360 px)', () => {
  const person = fixturePeople().find((p) => p.teamId === 1)!;
  for (const lang of LANGS) {
    test(`a typed code names the person; a wrong one says what to do; an empty one says what to type (${lang})`, async () => {
      const code = certificateCode({ kind: 'participant', id: person.id, edition: 2025 }, JWT_SECRET);
      const { context, page } = await kit.newPage(lang, 360);
      await page.goto(`${stack.baseUrl}/verify`);
      const input = page.getByLabel(locale('features/certificates/locales', 'verify.field', lang), { exact: true });
      await input.waitFor();
      expect(await input.getAttribute('data-testid')).toBe('verify-input');

      // Nothing typed: where the code is, next to the field.
      await page.getByTestId('verify-submit').click();
      await page.getByTestId('verify-missing').waitFor();
      expect(text(await page.getByTestId('verify-missing').textContent())).toBe(locale('features/certificates/locales', 'verify.fieldMissing', lang));
      expect(await input.getAttribute('aria-invalid')).toBe('true');

      // The genuine code, typed in lower case with spaces around it.
      await input.fill(` ${code.toLowerCase()} `);
      await page.getByTestId('verify-submit').click();
      await page.getByTestId('verify-valid').waitFor();
      expect(await page.getByTestId('verify-participant').textContent()).toBe(person.fullName);
      expect(new URL(page.url()).pathname).toBe(`/verify/${code.toLowerCase()}`);

      // Retyped with one character wrong: refused, no name, and what to do.
      const wrong = `${code.slice(0, -1)}${code.endsWith('Z') ? 'Y' : 'Z'}`;
      const again = page.getByTestId('verify-input');
      await again.fill(wrong);
      await page.getByTestId('verify-submit').click();
      await page.getByTestId('verify-refused').waitFor();
      const refused = text(await page.getByTestId('verify-refused').textContent());
      expect(refused).toContain(message(lang, 'CERTIFICATE_NOT_VALID'));
      expect(refused).toContain(locale('features/certificates/locales', 'verify.invalidHelp', lang));
      expect(await page.textContent('main')).not.toContain(person.fullName);
      // The field keeps the code, to correct it.
      expect(await page.getByTestId('verify-input').inputValue()).toBe(wrong);
      await context.close();
    });
  }
});

describe('searches fold case and diacritics (1440 px)', () => {
  for (const lang of LANGS) {
    test(`"voru" finds what "Võru" finds in the participants table; no match says so with a way out (${lang})`, async () => {
      const withMarks = await paged('/stats/teams', { page: 1, size: 10, q: 'Võru' });
      expect(withMarks.total).toBeGreaterThan(0);
      expect(await paged('/stats/teams', { page: 1, size: 10, q: 'voru' })).toEqual(withMarks);
      expect(await paged('/stats/teams', { page: 1, size: 10, q: 'VÕRU' })).toEqual(withMarks);

      const { context, page } = await kit.newPage(lang, 1440);
      await page.goto(`${stack.baseUrl}/participants`);
      const table = page.getByTestId('teams-table');
      const rows = table.getByTestId('teams-table-row');
      await rows.first().waitFor();
      await table.getByTestId('teams-table-search').fill('voru');
      await poll(() => shownIds(rows, 'data-row-id')).toEqual(withMarks.ids);

      const nonsense = 'xqzw';
      await table.getByTestId('teams-table-search').fill(nonsense);
      const empty = table.getByTestId('teams-table-empty-search');
      await empty.waitFor();
      expect(text(await empty.textContent())).toBe(locale('app/locales', 'table.noMatch', lang, { search: nonsense }));
      const clear = table.getByRole('button', { name: locale('app/locales', 'table.clearSearch', lang) });
      await clear.click();
      await poll(() => rows.count()).toBe(10);
      expect(await table.getByTestId('teams-table-search').inputValue()).toBe('');
      await context.close();
    });

    test(`"voru" finds what "Võru" finds in the console's users and teams tabs (${lang})`, async () => {
      const login = await api<{ token: string }>('/login', null, { method: 'POST', body: JSON.stringify(ADMIN) });
      expect(login.status).toBe(200);
      const token = `Bearer ${login.body.token}`;
      const { context, page } = await kit.newPage(lang, 1440);
      await kit.login(page, ADMIN.email, ADMIN.password);
      await page.waitForURL(/\/admin/);
      for (const [tab, sort] of [['users', { sort: 'participant_created_at', order: 'desc' }], ['teams', { sort: 'team_name', order: 'asc' }]] as const) {
        const withMarks = await paged(`/admin/${tab}`, { page: 1, size: 50, ...sort, q: 'Võru' }, token);
        expect(withMarks.total, tab).toBeGreaterThan(0);
        expect(await paged(`/admin/${tab}`, { page: 1, size: 50, ...sort, q: 'voru' }, token), tab).toEqual(withMarks);
        await page.getByTestId(`admin-tab-${tab}`).click();
        const table = page.getByTestId(`admin-${tab}-table`);
        const rows = table.getByTestId('admin-row');
        await rows.first().waitFor();
        await table.getByTestId('admin-search').fill('voru');
        await poll(() => shownIds(rows, 'data-id')).toEqual(withMarks.ids);
      }
      await context.close();
    });
  }
});

describe('time-sensitive content follows the app\'s clock (1440 px, 30 April 2025)', () => {
  const clock = Date.parse(CLOCK_START);
  for (const lang of LANGS) {
    test(`no story is listed or served before its publication time (${lang})`, async () => {
      const written = (JSON.parse(readFileSync(join(repoRoot, 'infra/content/news', `${fileLang(lang)}.json`), 'utf8')) as NewsAnswer).stories;
      const due = written.filter((story) => Date.parse(story.publishedAt) <= clock);
      // The content holds stories written ahead: the point of the check.
      expect(due.length).toBeLessThan(written.length);

      const served = await api<NewsAnswer>('/strapi/story', null, { method: 'POST', body: JSON.stringify({ locale: fileLang(lang) }) });
      expect(served.status).toBe(200);
      // The app's clock runs on from CLOCK_START: a story due in the meantime may be served too.
      for (const story of served.body.stories) expect(Date.parse(story.publishedAt), story.id).toBeLessThanOrEqual(clock + 3_600_000);
      expect(served.body.stories.map((s) => s.id)).toEqual(expect.arrayContaining(due.map((s) => s.id)));
      const notYet = written.filter((story) => Date.parse(story.publishedAt) > clock + 3_600_000);
      expect(notYet.length).toBeGreaterThan(0);

      const { context, page } = await kit.newPage(lang, 1440);
      await page.goto(`${stack.baseUrl}/news`);
      await page.locator('[data-testid="news-story"], [data-testid="news-empty"]').first().waitFor();
      const titles = await page.getByTestId('news-story').locator('h2').allTextContents();
      for (const story of notYet) expect(titles).not.toContain(story.title);
      for (const story of due) expect(titles).toContain(story.title);
      await context.close();
    });

    test(`the draw page says when the draw takes place (${lang})`, async () => {
      const { context, page } = await kit.newPage(lang, 1440);
      await page.goto(`${stack.baseUrl}/loos`);
      const planned = page.getByTestId('draw-planned');
      await planned.waitFor();
      // Spec §4: 5 May 2025 at 17:00, Tallinn, in the page's language.
      const when = new Intl.DateTimeFormat(lang === 'est' ? 'et-EE' : 'en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Tallinn' })
        .format(new Date('2025-05-05T17:00:00+03:00'));
      expect(text(await planned.textContent())).toBe(locale('features/draw/locales', 'planned', lang, { when }));
      expect(text(await planned.textContent())).toContain('17:00');
      await context.close();
    });
  }
});

describe('the participants table\'s page and sort are in the address (1440 px)', () => {
  for (const lang of LANGS) {
    test(`a reload and the back button show the same rows (${lang})`, async () => {
      const { context, page } = await kit.newPage(lang, 1440);
      await page.goto(`${stack.baseUrl}/participants`);
      const table = page.getByTestId('teams-table');
      const rows = table.getByTestId('teams-table-row');
      const ids = () => shownIds(rows, 'data-row-id');
      await rows.first().waitFor();
      await table.getByTestId('teams-table-sort-team_name').click();
      const sortedDesc = await paged('/stats/teams', { page: 1, size: 10, sort: 'team_name', order: 'desc' });
      await poll(ids).toEqual(sortedDesc.ids);
      await table.getByTestId('teams-table-page-2').click();
      const second = await paged('/stats/teams', { page: 2, size: 10, sort: 'team_name', order: 'desc' });
      await poll(ids).toEqual(second.ids);
      const address = new URL(page.url());
      expect(Object.fromEntries(address.searchParams)).toEqual({ page: '2', sort: 'team_name', order: 'desc' });

      await page.reload();
      await rows.first().waitFor();
      await poll(ids).toEqual(second.ids);
      expect(await table.getByTestId('teams-table-page-2').getAttribute('aria-current')).toBe('page');

      // Away and back: the same rows.
      await page.goto(`${stack.baseUrl}/news`);
      await page.goBack();
      await rows.first().waitFor();
      await poll(ids).toEqual(second.ids);

      // A shared link opens on the same rows in a new page.
      const shared = await kit.newPage(lang, 1440);
      await shared.page.goto(address.toString());
      await shared.page.getByTestId('teams-table-row').first().waitFor();
      await poll(() => shownIds(shared.page.getByTestId('teams-table-row'), 'data-row-id')).toEqual(second.ids);
      await shared.context.close();
      await context.close();
    });
  }
});

describe('figures that say one thing each', () => {
  for (const lang of LANGS) {
    test(`the missing-flowers box has one flower figure, not the total beside another "collected" (1440 px, ${lang})`, async () => {
      const stats = (await api<StatsAnswer>('/stats')).body;
      const { context, page } = await kit.newPage(lang, 1440);
      await page.goto(`${stack.baseUrl}/`);
      const box = page.getByTestId('missing-flowers');
      await page.getByTestId('missing-flowers-count').waitFor();
      const said = text(await box.textContent());
      const missing = Number(text(await page.getByTestId('missing-flowers-count').textContent()).replace(/\D/g, ''));
      expect(said).not.toMatch(/\d\s*\+\s*\d/);
      // The community's total counts every lap; this box counts the current laps only.
      if (stats.totalBlueFlowers !== missing) expect(said.replace(/\D+/g, ' ')).not.toContain(` ${stats.totalBlueFlowers} `);
      const perLap = edition2025.flowers.base + edition2025.route.missions.length;
      expect(text(await page.getByTestId('missing-flowers-per-lap').textContent()))
        .toBe(locale('features/home/locales', 'missing.perLap_other', lang, { count: String(perLap), missions: String(edition2025.route.missions.length) }));
      await context.close();
    });

    test(`the share page of a team on a later lap names the lap its missions belong to (360 px, ${lang})`, async () => {
      const stats = (await api<StatsAnswer>('/stats')).body;
      const team = stats.teams.find((t) => t.prestige >= 1 && teamProgress(t.distance, edition2025).missionsCompleted > 0)!;
      expect(team).toBeDefined();
      const progress = teamProgress(team.distance, edition2025);
      const lap = progress.prestige + 1;
      const total = edition2025.route.missions.length;
      const { context, page } = await kit.newPage(lang, 360);
      await page.goto(`${stack.baseUrl}/api/share/team/${team.team.id}${lang === 'eng' ? '?lang=en' : ''}`);
      const image = page.locator('img');
      await image.evaluate((img: HTMLImageElement) => img.decode());
      const description = text(await page.locator('p').first().textContent());
      const alt = (await image.getAttribute('alt')) ?? '';
      if (lang === 'est') {
        expect(description).toContain(`Teekonna ${lap}. ringil on läbitud ${progress.missionsCompleted} missiooni ${total}-st`);
        expect(alt).toContain(`${lap}. ringil ${progress.missionsCompleted}/${total} missiooni`);
      } else {
        expect(description).toContain(`On lap ${lap} of the route it has completed ${progress.missionsCompleted} of ${total} missions`);
        expect(alt).toContain(`lap ${lap}: ${progress.missionsCompleted}/${total} missions`);
      }
      // The image fits the phone (drawn ≤ 360 px wide from its 1200 px: its type is sized for that, share.test.ts).
      const box = await image.boundingBox();
      expect(box!.width).toBeLessThanOrEqual(360);
      expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1200);
      await context.close();
    });
  }
});

/** Two boxes overlap (by more than half a pixel: rounding of transforms is not an overlap). */
const overlaps = (a: Box, b: Box) =>
  Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 0.5 && Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 0.5;
interface Box { x: number; y: number; width: number; height: number }

describe('the mission map on a phone (360 px)', () => {
  for (const lang of LANGS) {
    test(`no two markers or badges overlap, each is a 24 px target, and a tapped mission's details come into view (${lang})`, async () => {
      const { context, page } = await kit.newPage(lang, 360);
      await page.goto(`${stack.baseUrl}/`);
      const markers = page.getByTestId('route-map-markers').locator('button');
      await page.getByTestId('route-map-mission-1').waitFor();
      await poll(() => markers.count()).toBeGreaterThan(10);
      const shapes = await markers.evaluateAll((buttons) => buttons.map((button) => {
        const box = (element: Element) => {
          const r = element.getBoundingClientRect();
          return { x: r.x, y: r.y, width: r.width, height: r.height };
        };
        const badge = button.querySelector('[data-testid^="route-map-badge-"]');
        return { id: button.getAttribute('data-testid') ?? '', button: box(button), badge: badge ? box(badge) : null };
      }));
      for (const shape of shapes) {
        expect(shape.button.width, shape.id).toBeGreaterThanOrEqual(24);
        expect(shape.button.height, shape.id).toBeGreaterThanOrEqual(24);
      }
      const clashes: string[] = [];
      for (const [i, a] of shapes.entries()) {
        for (const b of shapes.slice(i + 1)) {
          const partsA = [a.button, ...(a.badge ? [a.badge] : [])];
          const partsB = [b.button, ...(b.badge ? [b.badge] : [])];
          if (partsA.some((p) => partsB.some((q) => overlaps(p, q)))) clashes.push(`${a.id} × ${b.id}`);
        }
      }
      expect(clashes).toEqual([]);

      // A tap on a mission with teams: its details are on screen without scrolling by hand.
      const withTeams = shapes.find((shape) => shape.badge !== null) ?? shapes[0]!;
      const id = withTeams.id.replace('route-map-mission-', '');
      await page.getByTestId(withTeams.id).click();
      const details = page.getByTestId('route-map-details');
      await poll(() => details.getAttribute('data-mission-id')).toBe(id);
      await poll(() => details.evaluate((element) => {
        const r = element.getBoundingClientRect();
        return r.top >= 0 && r.top < window.innerHeight - 48 && r.bottom > 0;
      })).toBe(true);
      await context.close();
    });
  }
});
