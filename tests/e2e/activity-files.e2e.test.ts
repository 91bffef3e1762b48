/**
 * Activity files on the team page, in headless Chromium against `npm start`
 * (the 2025 export imported; the simulated clock on 20 April 2025, so entries are open): a member
 * chooses a GPX and a FIT file at once (made here: the GPX as text, the FIT by @garmin/fitsdk's
 * Encoder), sees each proposal with its map, adds both as entries; the same GPX is refused the
 * second time and a damaged FIT at once, with the catalogue's texts in Estonian and in English;
 * a triathlon's multi-sport FIT is proposed as one part per sport (its own km and type) and added
 * as that many entries with one click, while a real Forerunner 945 triathlon (the corpus's, of
 * 2019) is proposed the same way and refused whole, being outside the edition; a GPX without time
 * asks for its day; axe finds no serious
 * or critical violation on the new section in either language.
 */
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { Encoder, Profile, type FileIdMesg, type RecordMesg, type SessionMesg } from '@garmin/fitsdk';
import { fitFile, gpxFile } from '@sinilill/activity-files/testing';
import { launchBrowser } from '../support/browser';
import { e2eKit, message, type Lang } from '../support/e2e-kit';
import type { RunningStack } from '../support/stack';
import { sharedStack, E2E_STACKS } from '../support/shared-stack';
import { fixturePeople } from '../support/app';

let stack: RunningStack;
let browser: Browser;
const kit = e2eKit(() => stack, () => browser);

beforeAll(async () => {
  [stack, browser] = await Promise.all([sharedStack(E2E_STACKS.april20), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const teamId = 1;
const [member] = fixturePeople().filter((p) => p.teamId === teamId);
const password = 'faili-parool-1';
const text = (s: string | null) => (s ?? '').replace(/\s/g, ' ').trim();

/** 07:00 in Tallinn on 12 April: 21 points 100 m apart, 2 km. */
const gpx = { name: 'hommikujooks.gpx', mimeType: 'application/gpx+xml', buffer: Buffer.from(gpxFile({ start: '2025-04-12T04:00:00.000Z', points: 21 }, 'running')) };
/** A ride on 14 April whose session says 12.34 km. */
const fit = { name: 'rattasõit.fit', mimeType: 'application/octet-stream', buffer: Buffer.from(fitFile({ start: '2025-04-14T15:00:00.000Z', points: 30 }, 'cycling', 'road', 12_340)) };
const damaged = (() => {
  const bytes = Buffer.from(fitFile({ start: '2025-04-15T15:00:00.000Z', points: 10 }));
  bytes[50] = bytes[50]! ^ 0xff;
  return { name: 'katki.fit', mimeType: 'application/octet-stream', buffer: bytes };
})();

const SEMICIRCLES_PER_DEGREE = 2 ** 31 / 180;

/**
 * A triathlon as a multi-sport watch records it on 13 April (from 08:00 Tallinn): one FIT of three
 * sessions, each with its sport and its own total_distance, records along a line north of Pärnu.
 */
function triathlonFit(): Uint8Array {
  const encoder = new Encoder();
  const start = Date.parse('2025-04-13T05:00:00.000Z');
  encoder.onMesg(Profile.MesgNum.FILE_ID!, { manufacturer: 'development', product: 1, timeCreated: new Date(start), type: 'activity' } as FileIdMesg);
  const legs = [
    { sport: 'swimming', subSport: 'openWater', metres: 1_900, minutes: 40 },
    { sport: 'cycling', subSport: 'road', metres: 90_120, minutes: 160 },
    { sport: 'running', subSport: 'generic', metres: 21_100, minutes: 110 },
  ];
  let at = start;
  let lat = 58.385;
  for (const leg of legs) {
    const legStart = at;
    for (let minute = 0; minute <= leg.minutes; minute++) {
      encoder.onMesg(Profile.MesgNum.RECORD!, {
        timestamp: new Date(at), positionLat: Math.round(lat * SEMICIRCLES_PER_DEGREE), positionLong: Math.round(24.5 * SEMICIRCLES_PER_DEGREE),
      } as RecordMesg);
      lat += leg.metres / leg.minutes / 111_320;
      at += 60_000;
    }
    encoder.onMesg(Profile.MesgNum.SESSION!, {
      timestamp: new Date(at), startTime: new Date(legStart), sport: leg.sport, subSport: leg.subSport,
      totalElapsedTime: leg.minutes * 60, totalDistance: leg.metres,
    } as SessionMesg);
  }
  return encoder.close();
}

/** A real Forerunner 945 triathlon of 21 September 2019 (packages/activity-files/corpus, its README says whence). */
const realTriathlon = {
  name: 'garmin-fr945-triathlon.fit', mimeType: 'application/octet-stream',
  buffer: readFileSync(new URL('../../packages/activity-files/corpus/garmin-fr945-triathlon.fit', import.meta.url)),
};
const triathlon = { name: 'triatlon.fit', mimeType: 'application/octet-stream', buffer: Buffer.from(triathlonFit()) };
/** A GPX drawn in an editor: points without time (1.5 km), so the member chooses the day. */
const timeless = {
  name: 'joonistatud.gpx', mimeType: 'application/gpx+xml',
  buffer: Buffer.from(new TextDecoder().decode(gpxFile({ start: '2025-04-16T04:00:00.000Z', points: 16 }, 'walking')).replace(/<time>[^<]*<\/time>/g, '')),
};

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include('[data-testid="activity-files"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).setLegacyMode(true).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

async function signIn(lang: Lang, first: boolean): Promise<Page> {
  const { page } = await kit.newPage(lang, 1440);
  if (first) await kit.setPasswordByMail(page, member!.email, password);
  await kit.login(page, member!.email, password);
  await page.waitForURL(/\/team$/);
  await page.getByTestId('activity-files').waitFor();
  return page;
}

/** How long a file may take to be read or added: each is read by a child process of its own, one at a time, on a busy machine. */
const READING = { timeout: 30_000 };

const item = (page: Page, name: string) => page.getByTestId('activity-file-item').filter({ hasText: name });

describe('entries from activity files', () => {
  test('a GPX and a FIT become confirmed entries; the same file again and a damaged one are refused (Estonian)', async () => {
    const page = await signIn('est', true);
    await page.getByTestId('activity-file-input').setInputFiles([gpx, fit]);

    const gpxItem = item(page, gpx.name);
    const fitItem = item(page, fit.name);
    await expect.poll(() => gpxItem.getAttribute('data-status'), READING).toBe('proposal');
    await expect.poll(() => fitItem.getAttribute('data-status'), READING).toBe('proposal');
    expect(text(await gpxItem.getByTestId('activity-file-distance').textContent())).toBe('2,00 km');
    expect(text(await fitItem.getByTestId('activity-file-distance').textContent())).toBe('12,34 km');
    expect(await gpxItem.getByTestId('activity-file-type').inputValue()).toBe('OUTDOOR_RUN');
    expect(await fitItem.getByTestId('activity-file-type').inputValue()).toBe('OUTDOOR_CYCLE');
    await expect.poll(() => gpxItem.getByTestId('activity-file-map').locator('path').getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+L/);
    await fitItem.getByTestId('activity-file-map').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await gpxItem.getByTestId('activity-file-confirm').click();
    await fitItem.getByTestId('activity-file-confirm').click();
    await expect.poll(() => gpxItem.getAttribute('data-status'), READING).toBe('added');
    await expect.poll(() => fitItem.getAttribute('data-status'), READING).toBe('added');
    // Both are the member's entries now, with the files' days.
    const token = await page.evaluate('window.localStorage.getItem("token")') as string;
    await expect.poll(async () => {
      const response = await fetch(`${stack.baseUrl}/api/team/${teamId}/entries`, { headers: { authorization: token } });
      const entries = await response.json() as { distance: number; performed_at: string; participant_id: number; entry_type: string }[];
      return entries.filter((e) => e.participant_id === member!.id && ((e.distance === 2 && e.performed_at === '2025-04-12') || (e.distance === 12.34 && e.performed_at === '2025-04-14'))).map((e) => e.entry_type).sort();
    }).toEqual(['OUTDOOR_CYCLE', 'OUTDOOR_RUN']);

    // The same GPX again (another name), and a damaged FIT: refused with the catalogue's words.
    await page.getByTestId('activity-file-input').setInputFiles([{ ...gpx, name: 'uuesti.gpx' }, damaged]);
    const again = item(page, 'uuesti.gpx');
    await again.getByTestId('alert-error').waitFor();
    expect(text(await again.getByTestId('alert-error').textContent())).toBe(message('est', 'ACTIVITY_FILE_ALREADY_USED'));
    expect(await again.getByTestId('activity-file-confirm').count()).toBe(0);
    const broken = item(page, damaged.name);
    await expect.poll(() => broken.getAttribute('data-status'), READING).toBe('refused');
    expect(text(await broken.getByTestId('alert-error').textContent())).toBe(message('est', 'ACTIVITY_FILE_UNREADABLE'));
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  test('a triathlon\'s FIT is one part per sport, added as three entries at once; a GPX without time asks for its day', async () => {
    const page = await signIn('est', false);
    await page.getByTestId('activity-file-input').setInputFiles([realTriathlon, triathlon, timeless]);
    // The real one: its three sports with the device's km, added all or none; 2019 is outside the edition.
    const real = item(page, realTriathlon.name);
    await expect.poll(() => real.getAttribute('data-status'), READING).toBe('proposal');
    expect(await real.getAttribute('data-parts')).toBe('3');
    expect(await real.getByTestId('activity-file-part-distance').allTextContents()).toEqual(['1,51 km', '39,65 km', '9,72 km']);
    expect(await Promise.all([0, 1, 2].map((i) => real.getByTestId('activity-file-part').nth(i).getByTestId('activity-file-type').inputValue())))
      .toEqual(['SWIMMING', 'OUTDOOR_CYCLE', 'OUTDOOR_RUN']);
    await real.getByTestId('activity-file-confirm').click();
    await real.getByTestId('alert-error').waitFor();
    expect(text(await real.getByTestId('alert-error').textContent())).toBe(message('est', 'INVALID_PERFORMED_AT'));
    expect(await real.getAttribute('data-status')).toBe('proposal');

    const tri = item(page, triathlon.name);
    await expect.poll(() => tri.getAttribute('data-status'), READING).toBe('proposal');
    expect(await tri.getAttribute('data-parts')).toBe('3');
    const parts = tri.getByTestId('activity-file-part');
    expect(await parts.getByTestId('activity-file-part-distance').allTextContents()).toEqual(['1,90 km', '90,12 km', '21,10 km']);
    // The three on the watch's one day, as the page's language writes it.
    const days = await parts.getByTestId('activity-file-part-date').allTextContents();
    expect(days).toHaveLength(3);
    expect(new Set(days).size).toBe(1);
    expect(days[0]).toMatch(/13/);
    const types = await Promise.all([0, 1, 2].map((i) => parts.nth(i).getByTestId('activity-file-type').inputValue()));
    expect(types).toEqual(['SWIMMING', 'OUTDOOR_CYCLE', 'OUTDOOR_RUN']);
    expect(text(await tri.getByTestId('activity-file-distance').textContent())).toBe('113,12 km');
    await tri.getByTestId('activity-file-map').waitFor();
    expect(text(await tri.getByTestId('activity-file-confirm').textContent())).toBe('Lisa kõik 3 sissekannet');

    const drawn = item(page, timeless.name);
    await expect.poll(() => drawn.getAttribute('data-status'), READING).toBe('proposal');
    expect(await drawn.getByTestId('activity-file-confirm').isDisabled()).toBe(true);
    await drawn.getByTestId('activity-file-day').fill('2025-04-16');
    expect(await seriousViolations(page)).toEqual([]);

    await tri.getByTestId('activity-file-confirm').click();
    await drawn.getByTestId('activity-file-confirm').click();
    await expect.poll(() => tri.getAttribute('data-status'), READING).toBe('added');
    await expect.poll(() => drawn.getAttribute('data-status'), READING).toBe('added');
    expect(text(await tri.getByTestId('alert-success').textContent())).toBe('Lisatud 3 sissekannet, kokku 113,12 km.');
    const token = await page.evaluate('window.localStorage.getItem("token")') as string;
    await expect.poll(async () => {
      const response = await fetch(`${stack.baseUrl}/api/team/${teamId}/entries`, { headers: { authorization: token } });
      const entries = await response.json() as { distance: number; performed_at: string; participant_id: number; entry_type: string }[];
      return entries.filter((e) => e.participant_id === member!.id && ['2025-04-13', '2025-04-16'].includes(e.performed_at))
        .map((e) => `${e.performed_at} ${e.entry_type} ${e.distance}`).sort();
    }).toEqual(['2025-04-13 OUTDOOR_CYCLE 90.12', '2025-04-13 OUTDOOR_RUN 21.1', '2025-04-13 SWIMMING 1.9', '2025-04-16 WALK 1.5']);
    await page.context().close();
  });

  test('in English: the refusals and the proposal read in English, and axe finds nothing serious', async () => {
    const page = await signIn('eng', false);
    expect(text(await page.locator('#activity-files-heading').textContent())).toBe('Add from a file');
    await page.getByTestId('activity-file-input').setInputFiles([{ ...fit, name: 'again.fit' }, damaged]);
    const again = item(page, 'again.fit');
    await again.getByTestId('alert-error').waitFor();
    expect(text(await again.getByTestId('alert-error').textContent())).toBe(message('eng', 'ACTIVITY_FILE_ALREADY_USED'));
    const broken = item(page, damaged.name);
    await expect.poll(() => broken.getAttribute('data-status'), READING).toBe('refused');
    expect(text(await broken.getByTestId('alert-error').textContent())).toBe(message('eng', 'ACTIVITY_FILE_UNREADABLE'));
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});
