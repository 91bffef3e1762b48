/**
 * Layout and accessibility at the widths people use (the rough edges), in headless
 * Chromium against `npm start` (the 2025 export imported, the app's clock on 20 April 2025 so that
 * entries are open), in Estonian and in English. One stack, one browser; pages are reused and
 * resized rather than opened anew, to keep the file at a few minutes.
 *
 * - At 360 px: the team page's floating add-entry button covers no entries row's distance,
 *   checkbox or edit button — with the page scrolled to its end, with the last row scrolled into
 *   view, and when the keyboard moves to a row that lay under it (the browser keeps what it
 *   scrolls to above the button); a stat box's label and number never overlap nor leave the box
 *   (home and team page); the empty-table message ("Andmed puuduvad" / "No Available Data", spec
 *   §8) stays inside the visible part of its table; a table wider than its box is a named,
 *   focusable region that says it scrolls (a line above it, a shadow at the hiding edge).
 * - The home page's map markers and route bar are one Tab stop each (roving tabindex, WAI-ARIA
 *   APG): toolbars named in the page's language, the arrow keys, Home and End move between the
 *   missions, Enter still opens what a click opens; every marker and segment is at least 24 × 24
 *   CSS px and no two markers overlap (WCAG 2.2, 2.5.8), at 360 and at 1440 px.
 * - axe-core (WCAG 2.0, 2.1 and 2.2 A/AA rules) finds no serious or critical violation on any
 *   route of the client, logged out and logged in (a participant who has not paid, one who has,
 *   and an administrator on every console tab), at 360 and at 1440 px. Measured with element
 *   boxes (getBoundingClientRect), not screenshots.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { repoRoot } from '@sinilill/config';
import { launchBrowser } from '../support/browser';
import { e2eKit, type Lang } from '../support/e2e-kit';
import type { RunningStack } from '../support/stack';
import { E2E_ADMIN, sharedStack, E2E_STACKS } from '../support/shared-stack';

const ADMIN = E2E_ADMIN;
/** Fixture participants of team 7 (infra/seed/edition-2025): Siim Sepp has not paid, Aivar Rebane has. */
const UNPAID = { email: 'participant52@example.ee', password: 'Sinilill liige 2025 parool!' };
const PAID = { email: 'participant53@example.ee', password: 'Sinilill liige 2025 parool!' };
const LANGS = ['est', 'eng'] as const;
const WIDTHS = [360, 1440] as const;

let stack: RunningStack;
let browser: Browser;
const kit = e2eKit(() => stack, () => browser);

/** A text of the client in `lang`: `key` ("section.name") in the locale folder `folder` below web/src. */
function text(folder: string, key: string, lang: Lang): string {
  const file = JSON.parse(readFileSync(join(repoRoot, 'web/src', folder, `${lang === 'est' ? 'et' : 'en'}.json`), 'utf8')) as Record<string, unknown>;
  const found = key.split('.').reduce<unknown>((value, part) => (value as Record<string, unknown> | undefined)?.[part], file);
  if (typeof found !== 'string') throw new Error(`no ${lang} text ${key} in ${folder}`);
  return found;
}

/** An imported participant's first password, set the way the owner would: reset request, mailed link, new password. */
async function setPassword(email: string, password: string): Promise<void> {
  const post = (path: string, body: unknown) =>
    fetch(`${stack.baseUrl}/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect((await post('/requestpasswordreset', { email, lang: 'est' })).status).toBe(200);
  const link = kit.linkIn(await kit.mailTo(email, /parool|password/i), '/passwordreset');
  const [, token, userId] = /\/passwordreset\/([^/]+)\/([^/?#\s]+)/.exec(link)!;
  expect((await post('/resetpassword', { userId, token, newPassword: password })).status).toBe(200);
}

beforeAll(async () => {
  [stack, browser] = await Promise.all([
    sharedStack(E2E_STACKS.april20),
    launchBrowser(),
  ]);
  await Promise.all([setPassword(UNPAID.email, UNPAID.password), setPassword(PAID.email, PAID.password)]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

interface Box { left: number; top: number; right: number; bottom: number }

const intersects = (a: Box, b: Box) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
const inside = (inner: Box, outer: Box) =>
  inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5 && inner.top >= outer.top - 0.5 && inner.bottom <= outer.bottom + 0.5;

/** The element's border box in the viewport. */
async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`no box for ${locator.toString()}`);
  return { left: found.x, top: found.y, right: found.x + found.width, bottom: found.y + found.height };
}

/** The box of the element's content (its text and icons), which may overflow the element's own box. */
async function contentBox(locator: Locator): Promise<Box> {
  return locator.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const r = range.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  });
}

/** A fresh page in `lang`, `width` px wide, logged in as `who` (or not at all). */
async function openAs(lang: Lang, width: number, who: { email: string; password: string } | null): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await kit.newPage(lang, width);
  if (who) {
    await kit.login(opened.page, who.email, who.password);
    await opened.page.waitForURL((url) => !url.pathname.startsWith('/login'));
  }
  return opened;
}

/** Two animation frames: what a resize or a key press set off has been laid out and painted. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/**
 * Each stat box's label and number: apart, and inside the box — across, inside its padding
 * (text running sideways is what happens on a narrow screen); down, inside its edges (a glyph's
 * height may exceed a tight line height).
 */
async function checkStatBoxes(section: Locator, where: string): Promise<number> {
  const boxes = section.locator('dl > div');
  const count = await boxes.count();
  for (let index = 0; index < count; index += 1) {
    const statBox = boxes.nth(index);
    // Measured in one go, in one layout: the page above may still move (the phase notice comes
    // with the stats), and boxes read at different moments would not line up (CI caught that).
    const { outer, label, number } = await statBox.evaluate((element) => {
      const rect = (r: DOMRect) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
      const content = (selector: string) => {
        const range = document.createRange();
        range.selectNodeContents(element.querySelector(selector)!);
        return rect(range.getBoundingClientRect());
      };
      const r = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      const px = (value: string) => Number.parseFloat(value) || 0;
      return {
        // Across: inside the padding; down: inside the edges (see above).
        outer: {
          left: r.left + px(style.borderLeftWidth) + px(style.paddingLeft),
          right: r.right - px(style.borderRightWidth) - px(style.paddingRight),
          top: r.top,
          bottom: r.bottom,
        },
        label: content('dt'),
        number: content('dd'),
      };
    });
    const name = `${where}, box ${index + 1} (${await statBox.locator('dt').textContent()})`;
    expect(intersects(label, number), `${name}: the label overlaps the number`).toBe(false);
    expect(inside(label, outer), `${name}: the label runs out of its box`).toBe(true);
    expect(inside(number, outer), `${name}: the number runs out of its box`).toBe(true);
  }
  return count;
}

/**
 * Every data table on the page that is wider than its box: a focusable region named by the
 * table's caption, with the "scroll sideways" line (its description) and the shadow at the edge
 * that hides columns, which moves to the other edge once scrolled to the end. Resolves with how
 * many such tables there were.
 */
async function checkWideTables(page: Page, lang: Lang): Promise<number> {
  const scrollers = page.locator('[role="region"][data-testid$="-scroller"]');
  let wide = 0;
  for (let index = 0; index < (await scrollers.count()); index += 1) {
    const scroller = scrollers.nth(index);
    const prefix = (await scroller.getAttribute('data-testid'))!.replace(/-scroller$/, '');
    const state = await scroller.evaluate((element) => {
      const labelledBy = (element.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean);
      const describedBy = (element.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
      const textOf = (ids: string[]) => ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ').trim();
      return {
        wider: element.scrollWidth > element.clientWidth + 1,
        tabIndex: element.tabIndex,
        name: element.getAttribute('aria-label') ?? textOf(labelledBy),
        description: textOf(describedBy),
      };
    });
    const frame = page.getByTestId(`${prefix}-scroll-frame`);
    const hint = page.getByTestId(`${prefix}-scroll-hint`);
    if (!state.wider) {
      expect(await hint.count(), `${prefix}: fits, yet says it scrolls`).toBe(0);
      continue;
    }
    wide += 1;
    expect(state.tabIndex, `${prefix}: the scrolling region takes the focus`).toBe(0);
    expect(state.name.length, `${prefix}: the scrolling region has a name`).toBeGreaterThan(0);
    expect(await hint.isVisible(), `${prefix}: the line saying it scrolls`).toBe(true);
    expect(state.description).toContain(text('app/locales', 'table.scrollHint', lang));
    expect(await frame.getAttribute('data-hidden-end'), `${prefix}: the shadow at the end`).not.toBeNull();
    expect(await frame.getAttribute('data-hidden-start')).toBeNull();
    await scroller.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    await expect.poll(() => frame.getAttribute('data-hidden-start'), { message: `${prefix}: the shadow moves to the start` }).not.toBeNull();
    expect(await frame.getAttribute('data-hidden-end')).toBeNull();
    await scroller.evaluate((element) => element.scrollTo({ left: 0 }));
  }
  return wide;
}

/** The add-entry button does not cover the distance, checkbox or edit button of `row`. */
async function expectRowClear(page: Page, row: Locator, why: string): Promise<void> {
  const button = await box(page.getByTestId('add-entry'));
  const parts: [string, Locator][] = [
    ['distance', row.locator('td').nth(1)],
    ['checkbox', row.locator('input[type="checkbox"]')],
    ['edit button', row.locator('[data-testid^="entry-edit-"]')],
  ];
  for (const [name, part] of parts) {
    const partBox = await box(part);
    expect(intersects(button, partBox), `${why}: the add-entry button ${JSON.stringify(button)} covers the ${name} ${JSON.stringify(partBox)} of row ${await row.getAttribute('data-row-id')}`).toBe(false);
  }
}

describe('360 px: the floating button, stat boxes, the empty table and wide tables', () => {
  for (const lang of LANGS) {
    test(`${lang}: home and team page`, async () => {
      const { context, page } = await openAs(lang, 360, UNPAID);
      try {
        // Home: the four totals.
        await page.goto(stack.baseUrl);
        await page.getByTestId('stat-participants').waitFor();
        expect(await checkStatBoxes(page.locator('section[aria-labelledby="stats-heading"]'), 'home')).toBe(5); // distance, participants, teams, blue flowers and money raised

        // Team page: the three figures, the entries table that scrolls sideways.
        await page.goto(`${stack.baseUrl}/team`);
        const rows = page.getByTestId('entries-table-row');
        await rows.first().waitFor();
        expect(await checkStatBoxes(page.locator('section[aria-labelledby="team-stats-heading"]'), 'team')).toBe(3);
        expect(await checkWideTables(page, lang), 'the entries table is wider than 360 px').toBeGreaterThanOrEqual(1);
        const entries = page.getByRole('region', { name: text('features/team/locales', 'entries.caption', lang), exact: true });
        expect(await entries.getAttribute('data-testid')).toBe('entries-table-scroller');

        // The floating button, with the page at its end: no visible row under it.
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await settle(page);
        const viewport = { left: 0, top: 0, right: 360, bottom: page.viewportSize()!.height };
        for (let index = 0; index < (await rows.count()); index += 1) {
          if (intersects(await box(rows.nth(index)), viewport)) await expectRowClear(page, rows.nth(index), 'page at its end');
        }
        // The last row scrolled into view (to the window's bottom edge).
        const last = rows.last();
        await last.evaluate((element) => element.scrollIntoView({ block: 'end' }));
        await settle(page);
        await expectRowClear(page, last, 'last row scrolled into view');
        // The keyboard reaches the last row while it lies under the button: the page scrolls it clear.
        await rows.nth((await rows.count()) - 2).locator('[data-testid^="entry-edit-"]').evaluate((element) => (element as HTMLElement).focus({ preventScroll: true }));
        await last.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().bottom - window.innerHeight + 4));
        // (On a phone the add-entry button sits in the page under the team card, so nothing lies under it.)
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(`entries-table-select-${await last.getAttribute('data-row-id')}`);
        await settle(page);
        await expectRowClear(page, last, 'last row reached with Tab');

        // No entry matches: the message (what was searched, and a button to clear it) is whole,
        // inside the visible part of the table.
        await page.fill('[data-testid="entries-table-search"]', 'ei-leidu-midagi-xyz');
        const empty = page.getByTestId('entries-table-empty');
        await empty.waitFor();
        expect((await page.getByTestId('entries-table-empty-search').textContent())!.trim())
          .toBe(text('app/locales', 'table.noMatch', lang).replace('{{search}}', 'ei-leidu-midagi-xyz'));
        expect((await page.getByTestId('entries-table-clear-search').textContent())!.trim()).toBe(text('app/locales', 'table.clearSearch', lang));
        await empty.scrollIntoViewIfNeeded();
        const [message, scroller] = await Promise.all([contentBox(empty), box(page.getByTestId('entries-table-scroller'))]);
        expect(inside(message, scroller), `the empty message ${JSON.stringify(message)} is cut off by its table ${JSON.stringify(scroller)}`).toBe(true);
        expect(inside(message, { ...viewport, top: -1e6, bottom: 1e6 }), 'the empty message is cut off by the window').toBe(true);
        await page.screenshot({ path: join(repoRoot, 'test-results', `layout-team-empty-360-${lang}.png`) });
      } finally {
        await context.close();
      }
    });
  }

  test('a table that fits says nothing about scrolling (1440 px)', async () => {
    const { context, page } = await openAs('est', 1440, null);
    try {
      await page.goto(`${stack.baseUrl}/participants`);
      await page.getByTestId('teams-table-row').first().waitFor();
      expect(await checkWideTables(page, 'est')).toBe(0);
      expect(await page.getByTestId('teams-table-scroll-frame').getAttribute('data-hidden-end')).toBeNull();
    } finally {
      await context.close();
    }
  });
});

/** The focused element's test id. */
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? null);

describe('the home page by keyboard: the map and the route bar are one Tab stop each', () => {
  for (const [lang, width] of [['est', 1440], ['eng', 360]] as const) {
    test(`${lang}, ${width} px: Tab passes each widget once; arrows, Home and End move inside; targets of 24 px apart`, async () => {
      const { context, page } = await openAs(lang, width, null);
      try {
        await page.goto(stack.baseUrl);
        await page.getByTestId('route-map-mission-1').waitFor();
        await page.getByTestId('mission-1').waitFor();
        const markers = page.getByRole('toolbar', { name: text('features/home/locales', 'map.markers', lang), exact: true });
        const route = page.getByRole('toolbar', { name: text('features/home/locales', 'route.missions', lang), exact: true });
        expect(await markers.getAttribute('data-testid')).toBe('route-map-markers');
        expect(await route.getAttribute('data-testid')).toBe('route-missions');
        for (const widget of [markers, route]) {
          expect(await widget.locator('button').count()).toBe(24);
          expect(await widget.locator('button[tabindex="0"]').count()).toBe(1);
        }

        // Targets: every marker and segment at least 24 × 24 px; no marker (badge included) over another.
        const markerBoxes = await markers.locator('button').evaluateAll((buttons) => buttons.map((button) => {
          const own = button.getBoundingClientRect();
          const all = [own, ...Array.from(button.querySelectorAll('*'), (part) => part.getBoundingClientRect())];
          return {
            id: button.getAttribute('data-testid'),
            width: own.width,
            height: own.height,
            box: { left: Math.min(...all.map((r) => r.left)), top: Math.min(...all.map((r) => r.top)), right: Math.max(...all.map((r) => r.right)), bottom: Math.max(...all.map((r) => r.bottom)) },
          };
        }));
        const overlapping: string[] = [];
        for (const [i, a] of markerBoxes.entries()) {
          expect(Math.min(a.width, a.height), `${a.id} is smaller than 24 px`).toBeGreaterThanOrEqual(24);
          for (const b of markerBoxes.slice(i + 1)) if (intersects(a.box, b.box)) overlapping.push(`${a.id} ~ ${b.id}`);
        }
        expect(overlapping, 'overlapping map markers').toEqual([]);
        for (const segment of await route.locator('button').all()) {
          const { width: w, height: h } = (await segment.boundingBox())!;
          expect(Math.min(w, h), `${await segment.getAttribute('data-testid')} is smaller than 24 px`).toBeGreaterThanOrEqual(24);
        }

        // Tab from the top of the page to the footer: one stop in each widget.
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        const stops: { id: string | null; inMarkers: boolean; inRoute: boolean }[] = [];
        for (let press = 0; press < 80; press += 1) {
          await page.keyboard.press('Tab');
          const stop = await page.evaluate(() => {
            const element = document.activeElement;
            return {
              id: element?.getAttribute('data-testid') ?? element?.tagName ?? null,
              inMarkers: element?.closest('[data-testid="route-map-markers"]') != null,
              inRoute: element?.closest('[data-testid="route-missions"]') != null,
              inFooter: element?.closest('footer') != null,
            };
          });
          if (stop.inFooter) break;
          stops.push(stop);
        }
        const shown = stops.map((s) => s.id).join(' → ');
        expect(stops.filter((s) => s.inMarkers).map((s) => s.id), shown).toEqual(['route-map-mission-1']);
        expect(stops.filter((s) => s.inRoute).map((s) => s.id), shown).toEqual(['mission-1']);
        expect(stops.length, `Tab stops before the footer: ${shown}`).toBeLessThanOrEqual(25);

        // The map: arrows, Home and End in mission order (round the ends); Enter opens the details.
        await page.getByTestId('route-map-mission-1').focus();
        for (const [key, expected] of [['ArrowRight', 2], ['ArrowDown', 3], ['ArrowLeft', 2], ['ArrowUp', 1], ['End', 24], ['Home', 1], ['ArrowLeft', 24]] as const) {
          await page.keyboard.press(key);
          expect(await focusedId(page), `map, ${key}`).toBe(`route-map-mission-${expected}`);
        }
        await page.keyboard.press('Enter');
        await expect.poll(() => page.getByTestId('route-map-details').getAttribute('data-mission-id')).toBe('24');
        expect(await page.getByTestId('route-map-mission-24').getAttribute('aria-pressed')).toBe('true');
        expect(await markers.locator('button[tabindex="0"]').getAttribute('data-testid')).toBe('route-map-mission-24');
        // Out and back in: the stop remembers the marker.
        await page.keyboard.press('Tab');
        expect(await markers.evaluate((element) => element.contains(document.activeElement))).toBe(false);
        await page.keyboard.press('Shift+Tab');
        expect(await focusedId(page)).toBe('route-map-mission-24');

        // The route bar: the same keys; Enter opens the close-up, Escape closes it and returns the focus.
        await page.getByTestId('mission-1').focus();
        for (const [key, expected] of [['ArrowRight', 2], ['End', 24], ['Home', 1], ['ArrowLeft', 24], ['ArrowRight', 1], ['ArrowRight', 2], ['ArrowRight', 3]] as const) {
          await page.keyboard.press(key);
          expect(await focusedId(page), `route bar, ${key}`).toBe(`mission-${expected}`);
        }
        await page.keyboard.press('Enter');
        const closeup = page.getByTestId('mission-closeup');
        await closeup.waitFor();
        expect(await closeup.getAttribute('data-mission-id')).toBe('3');
        expect(await page.getByTestId('mission-3').getAttribute('aria-expanded')).toBe('true');
        await page.getByTestId('mission-closeup-close').focus();
        await page.keyboard.press('Escape');
        await closeup.waitFor({ state: 'detached' });
        expect(await focusedId(page)).toBe('mission-3');
        await page.keyboard.press('Tab');
        expect(await route.evaluate((element) => element.contains(document.activeElement))).toBe(false);
      } finally {
        await context.close();
      }
    });
  }
});

/** A route to check, how to know it has drawn, and who looks at it. */
interface RouteCase {
  path: string;
  /** Resolves once the route's own content is on the page. */
  ready: (page: Page) => Promise<void>;
}

const shows = (...testIds: string[]) => async (page: Page) => {
  await page.locator(testIds.map((id) => `[data-testid="${id}"]`).join(', ')).first().waitFor({ timeout: 20_000 });
};

/** Every route of web/src/app/router.tsx, by who sees it (logged-in routes logged in, as their users see them). */
const ROUTES: Record<'visitor' | 'unpaid' | 'paid' | 'admin', RouteCase[]> = {
  visitor: [
    { path: '/', ready: async (page) => { await shows('route-map-mission-1')(page); await shows('mission-1')(page); await shows('stat-participants')(page); } },
    { path: '/register', ready: shows('step-user-information') },
    { path: '/login', ready: shows('login-submit') },
    { path: '/login?type=forgot', ready: shows('forgot-submit') },
    { path: '/passwordreset/not-a-real-token/00000000-0000-0000-0000-000000000000', ready: shows('reset-submit') },
    { path: '/confirm/account/not-a-real-token/00000000-0000-0000-0000-000000000000', ready: shows('confirm-submit') },
    { path: '/participants', ready: shows('teams-table-row') },
    { path: '/history', ready: shows('history-year-2024') },
    { path: '/guide', ready: shows('guide-section-register') },
    { path: '/sponsor', ready: shows('sponsor-card') },
    { path: '/news', ready: shows('news-story', 'news-empty', 'news-error') },
    { path: '/privacy', ready: shows('privacy-data') },
    { path: '/success', ready: shows('registration-success') },
    { path: '/verify', ready: shows('verify-form') },
    // The logged-in routes as a visitor sees them: "please log in" and "forbidden".
    { path: '/team', ready: shows('login-required') },
    { path: '/admin', ready: shows('admin-forbidden') },
    { path: '/ei-ole-sellist-lehte', ready: shows('not-found') },
  ],
  unpaid: [
    { path: '/team', ready: shows('entries-table-row') },
    { path: '/account', ready: shows('account-greeting') },
    { path: '/pay', ready: shows('pay-fee') },
    { path: '/payment/success?amount=15.00&code=SL-LAYOUT-1', ready: shows('payment-server-state') },
    { path: '/payment/failed?code=SL-LAYOUT-2', ready: shows('payment-failed') },
  ],
  paid: [{ path: '/pay', ready: shows('pay-donation-form', 'pay-paid') }],
  admin: [
    { path: '/admin?tab=users', ready: shows('admin-row') },
    { path: '/admin?tab=teams', ready: shows('admin-row') },
    { path: '/admin?tab=entries', ready: shows('admin-row') },
    { path: '/admin?tab=resetPassword', ready: shows('admin-reset-submit') },
    { path: '/admin?tab=history', ready: shows('history-event', 'history-events-empty') },
    { path: '/admin?tab=operations', ready: shows('switch-registration') },
  ],
};

/**
 * axe-core's serious and critical violations on the page, with WCAG 2.2 AA's rules (target size)
 * besides 2.0 and 2.1 A/AA. Legacy mode runs axe in the page itself: the client has no frames,
 * and it is twice as fast as the default, which opens a second page for every run.
 */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).setLegacyMode(true).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}, ${v.nodes.length}×): ${v.help} — ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`).join(' | ')}`);
}

describe('axe: no serious or critical violation on any route, at 360 and 1440 px', () => {
  const users = { visitor: null, unpaid: UNPAID, paid: PAID, admin: ADMIN } as const;
  for (const lang of LANGS) {
    // Both languages at once: two pages share the machine's two cores. The bound guards against
    // a hang only: 63 s alone, 94–117 s beside the other browser-test lane (decision 0110).
    test.concurrent(`${lang}: every route`, { timeout: 480_000 }, async () => {
      const found: string[] = [];
      let checked = 0;
      for (const [who, routes] of Object.entries(ROUTES) as [keyof typeof ROUTES, RouteCase[]][]) {
        const { context, page } = await openAs(lang, WIDTHS[0], users[who]);
        try {
          for (const route of routes) {
            await page.setViewportSize({ width: WIDTHS[0], height: 900 });
            await page.goto(`${stack.baseUrl}${route.path}`);
            await route.ready(page);
            for (const width of WIDTHS) {
              await page.setViewportSize({ width, height: 900 });
              await settle(page);
              checked += 1;
              for (const violation of await seriousViolations(page)) found.push(`${route.path} (${who}, ${width} px): ${violation}`);
            }
          }
        } finally {
          await context.close();
        }
      }
      expect(checked).toBe(Object.values(ROUTES).flat().length * WIDTHS.length);
      expect(found, found.join('\n')).toEqual([]);
    });
  }
});
