/**
 * The prize draw anyone can check, in headless Chromium against `npm start` (the
 * 2025 export imported with its original times, the app's clock on 5 May 2025 12:00 Tallinn,
 * after the eligibility deadline): the administrator creates a seed in the console, publishes
 * its hash, reveals it; the public page /loos shows the commitment, the seed, the eligible count
 * and the winners (first name and team) in both languages; scripts/verify-draw.mjs recomputes
 * the winners from GET /api/draw; axe finds no serious or critical violation on /loos in either
 * language.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { DrawAnswer } from '@sinilill/contracts';
import { repoRoot } from '@sinilill/config';
import { launchBrowser } from '../support/browser';
import { e2eKit, type Lang } from '../support/e2e-kit';
import type { RunningStack } from '../support/stack';
import { E2E_ADMIN, sharedStack, E2E_STACKS } from '../support/shared-stack';

const ADMIN = E2E_ADMIN;
const run = promisify(execFile);

let stack: RunningStack;
let browser: Browser;
const kit = e2eKit(() => stack, () => browser);

beforeAll(async () => {
  [stack, browser] = await Promise.all([
    sharedStack(E2E_STACKS.may5),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** axe-core's serious and critical violations (WCAG 2.0–2.2 A/AA), as in layout.e2e.test.ts. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).setLegacyMode(true).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

let seed = '';

describe('the prize draw', () => {
  test('the administrator commits and reveals in the console; the script recomputes the public result', async () => {
    const { context, page } = await kit.newPage('est');
    await kit.login(page, ADMIN.email, ADMIN.password);
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto(`${stack.baseUrl}/admin?tab=draw`);
    await page.getByTestId('admin-draw-new-seed').click();
    seed = await page.getByTestId('admin-draw-seed').inputValue();
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    await page.getByTestId('admin-draw-at').fill('2025-05-05T12:00');
    await page.getByTestId('admin-draw-winners').fill('3');
    await page.getByTestId('admin-draw-commit').click();
    await page.getByTestId('alert-success').first().waitFor();
    const committed = await (await fetch(`${stack.baseUrl}/api/draw`)).json() as DrawAnswer;
    expect(committed).toMatchObject({ status: 'committed', commitment: createHash('sha256').update(seed).digest('hex'), seed: null, winnersCount: 3 });
    // The seed never left the browser before the draw.
    expect(JSON.stringify(committed)).not.toContain(seed);

    await page.getByTestId('admin-draw-reveal-seed').fill(seed);
    await page.getByTestId('admin-draw-reveal').click();
    await page.getByTestId('admin-draw-done').waitFor();
    await context.close();

    const { stdout } = await run(process.execPath, [join(repoRoot, 'scripts/verify-draw.mjs'), `${stack.baseUrl}/api/draw`]);
    expect(stdout).toContain('OK: the draw checks out');
    const drawn = await (await fetch(`${stack.baseUrl}/api/draw`)).json() as DrawAnswer;
    expect(drawn.status).toBe('drawn');
    expect(drawn.eligibleCount).toBeGreaterThan(3);
    expect(drawn.winners).toHaveLength(3);
  }, 60_000);

  for (const lang of ['est', 'eng'] as Lang[]) {
    test(`/loos shows the commitment, seed, eligible count and winners; axe finds nothing serious (${lang})`, async () => {
      expect(seed).not.toBe('');
      const drawn = await (await fetch(`${stack.baseUrl}/api/draw`)).json() as DrawAnswer;
      const { context, page } = await kit.newPage(lang, 360);
      await page.goto(`${stack.baseUrl}/loos`);
      await page.getByTestId('draw-winners').waitFor();
      expect(await page.getAttribute('html', 'lang')).toBe(lang === 'est' ? 'et' : 'en');
      expect(await page.getByRole('heading', { level: 1 }).first().textContent()).toBe(lang === 'est' ? 'Auhinnaloos' : 'Prize draw');
      expect(await page.getByTestId('draw-seed').textContent()).toBe(seed);
      expect(await page.getByTestId('draw-commitment').textContent()).toBe(drawn.commitment);
      expect(await page.getByTestId('draw-eligible-count').textContent()).toBe(String(drawn.eligibleCount));
      const items = await page.getByTestId('draw-winners').locator('li').allTextContents();
      expect(items).toEqual(drawn.winners.map((w) => `${w.firstName ?? ''} (${w.teamName ?? '—'})`));
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    }, 30_000);
  }
});
