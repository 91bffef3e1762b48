/**
 * Certificates and share images in headless Chromium against `npm start`
 * (the 2025 export imported, the app's clock on 10 May 2025, after the late-entry deadline, so the
 * results are final): an imported participant downloads their certificate from the team page, the
 * code in the PDF opens /verify/{code} for a visitor with the figures the team page shows; a
 * mistyped code is refused with no name; the team's progress page carries an og:image that loads
 * as a 1200×630 PNG; and axe finds no serious or critical violation on /verify/{code} and on the
 * progress page in either language.
 */
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TeamMember } from '@sinilill/contracts';
import { launchBrowser } from '../support/browser';
import { e2eKit, type Lang } from '../support/e2e-kit';
import type { RunningStack } from '../support/stack';
import { sharedStack, E2E_STACKS } from '../support/shared-stack';
import { fixturePeople } from '../support/app';

let stack: RunningStack;
let browser: Browser;
const kit = e2eKit(() => stack, () => browser);

beforeAll(async () => {
  [stack, browser] = await Promise.all([sharedStack(E2E_STACKS.may10), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const teamId = 1;
const person = fixturePeople().find((p) => p.teamId === teamId)!;

/** axe-core's serious and critical violations (WCAG 2.0–2.2 A/AA), as in layout.e2e.test.ts. */
async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const result = await builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).setLegacyMode(true).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

let code = '';

describe('certificates', () => {
  test('a participant downloads their certificate from the team page; its code verifies for a visitor', async () => {
    const { context, page } = await kit.newPage('est');
    await kit.setPasswordByMail(page, person.email, 'sertifikaat-1');
    await kit.login(page, person.email, 'sertifikaat-1');
    await page.waitForURL(/\/team$/);
    const box = page.getByTestId('certificate-box');
    await box.waitFor();
    const own = box.getByTestId('certificate-own');
    await expect.poll(() => own.isEnabled()).toBe(true);
    expect(await box.getByTestId('team-share-link').inputValue()).toBe(`${stack.baseUrl}/api/share/team/${teamId}`);
    expect(await seriousViolations(page, '[data-testid="certificate-box"]')).toEqual([]);
    const [download] = await Promise.all([page.waitForEvent('download'), own.click()]);
    expect(download.suggestedFilename()).toBe(`sinilill-2025-${person.id}.pdf`);
    const doc = await PDFDocument.load(readFileSync((await download.path())!));
    expect(doc.getTitle()).toBe(`Sinilill 2025 – ${person.fullName}`);
    code = /^Sinilill certificate (\S+)$/.exec(doc.getSubject() ?? '')?.[1] ?? '';
    expect(code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    expect(doc.getKeywords()).toContain(`${stack.baseUrl}/verify/${code}`);
    // What the team page's members table says about the person.
    const token = await page.evaluate('window.localStorage.getItem("token")') as string;
    const members = await (await fetch(`${stack.baseUrl}/api/team/${teamId}/participants`, { headers: { authorization: token } })).json() as TeamMember[];
    const me = members.find((m) => m.id === person.id)!;
    await context.close();

    const visitor = await kit.newPage('est');
    await visitor.page.goto(`${stack.baseUrl}/verify/${code}`);
    await visitor.page.getByTestId('verify-valid').waitFor();
    expect(await visitor.page.getByTestId('verify-participant').textContent()).toBe(person.fullName);
    expect(await visitor.page.getByTestId('verify-distance').textContent()).toBe(`${me.distance.toFixed(2).replace('.', ',').replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0')} km`);
    expect(await visitor.page.getByTestId('verify-code').textContent()).toBe(code);
    // One character changed: refused, and no name on the page.
    const wrong = `${code.slice(0, -1)}${code.endsWith('Z') ? 'Y' : 'Z'}`;
    await visitor.page.goto(`${stack.baseUrl}/verify/${wrong}`);
    await visitor.page.getByTestId('verify-refused').waitFor();
    expect(await visitor.page.textContent('main')).not.toContain(person.fullName);
    await visitor.context.close();
  }, 90_000);
});

describe('sharing a team\'s progress', () => {
  test('the progress page\'s og:image is an absolute address of a 1200×630 PNG', async () => {
    const html = await (await fetch(`${stack.baseUrl}/api/share/team/${teamId}`)).text();
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    const image = /<meta property="og:image" content="([^"]+)">/.exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';
    expect(image.startsWith(`${stack.baseUrl}/api/team/${teamId}/share.png?`)).toBe(true);
    const response = await fetch(image);
    expect(response.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1200, 630]);
  });
});

describe('axe on the new pages, in both languages', () => {
  for (const lang of ['est', 'eng'] as Lang[]) {
    test(`/verify/{code} and the progress page (${lang})`, async () => {
      expect(code).not.toBe('');
      const { context, page } = await kit.newPage(lang, 360);
      const found: string[] = [];
      await page.goto(`${stack.baseUrl}/verify/${code}`);
      await page.getByTestId('verify-valid').waitFor();
      expect(await page.getAttribute('html', 'lang')).toBe(lang === 'est' ? 'et' : 'en');
      for (const v of await seriousViolations(page)) found.push(`/verify: ${v}`);
      // The progress page's own policy lets its style and image load: no violation reported.
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
      });
      await page.goto(`${stack.baseUrl}/api/share/team/${teamId}${lang === 'eng' ? '?lang=en' : ''}`);
      await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
      expect(refused).toEqual([]);
      expect(await page.locator('main').evaluate((main) => getComputedStyle(main).maxWidth)).toBe('960px');
      for (const v of await seriousViolations(page)) found.push(`/api/share/team: ${v}`);
      await context.close();
      expect(found).toEqual([]);
    });
  }
});
