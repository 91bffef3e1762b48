/**
 * Activity files on the team page, in headless Chromium against `npm start`
 * (the 2025 export imported; the simulated clock on 20 April 2025, so entries are open): a member
 * chooses a GPX and a FIT file at once (made here: the GPX as text, the FIT by @garmin/fitsdk's
 * Encoder), sees each proposal with its map, adds both as entries; the same GPX is refused the
 * second time and a damaged FIT at once, with the catalogue's texts in Estonian and in English;
 * axe finds no serious or critical violation on the new section in either language.
 */
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
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

const item = (page: Page, name: string) => page.getByTestId('activity-file-item').filter({ hasText: name });

describe('entries from activity files', () => {
  test('a GPX and a FIT become confirmed entries; the same file again and a damaged one are refused (Estonian)', async () => {
    const page = await signIn('est', true);
    await page.getByTestId('activity-file-input').setInputFiles([gpx, fit]);

    const gpxItem = item(page, gpx.name);
    const fitItem = item(page, fit.name);
    await expect.poll(() => gpxItem.getAttribute('data-status')).toBe('proposal');
    await expect.poll(() => fitItem.getAttribute('data-status')).toBe('proposal');
    expect(text(await gpxItem.getByTestId('activity-file-distance').textContent())).toBe('2,00 km');
    expect(text(await fitItem.getByTestId('activity-file-distance').textContent())).toBe('12,34 km');
    expect(await gpxItem.getByTestId('activity-file-type').inputValue()).toBe('OUTDOOR_RUN');
    expect(await fitItem.getByTestId('activity-file-type').inputValue()).toBe('OUTDOOR_CYCLE');
    await expect.poll(() => gpxItem.getByTestId('activity-file-map').locator('path').getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+L/);
    await fitItem.getByTestId('activity-file-map').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await gpxItem.getByTestId('activity-file-confirm').click();
    await fitItem.getByTestId('activity-file-confirm').click();
    await expect.poll(() => gpxItem.getAttribute('data-status')).toBe('added');
    await expect.poll(() => fitItem.getAttribute('data-status')).toBe('added');
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
    await expect.poll(() => broken.getAttribute('data-status')).toBe('refused');
    expect(text(await broken.getByTestId('alert-error').textContent())).toBe(message('est', 'ACTIVITY_FILE_UNREADABLE'));
    expect(await seriousViolations(page)).toEqual([]);
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
    await expect.poll(() => broken.getAttribute('data-status')).toBe('refused');
    expect(text(await broken.getByTestId('alert-error').textContent())).toBe(message('eng', 'ACTIVITY_FILE_UNREADABLE'));
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});
