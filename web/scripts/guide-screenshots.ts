/**
 * Makes the guide's screenshots (spec §2 "Guide": screenshots differ by language): real
 * screenshots of this app in Estonian and English, saved as small WebP files in
 * web/src/features/guide/assets/{et,en}/ with their sizes in assets/sizes.json.
 *
 *   npx tsx web/scripts/guide-screenshots.ts            builds the web client, then shoots
 *   npx tsx web/scripts/guide-screenshots.ts --no-build uses the web/dist that exists
 *
 * It starts the whole app as the end-to-end tests do (tests/support/stack.ts: `npm start` on a
 * fresh data folder, which imports the 2025 export) and drives the machine's Chromium through
 * playwright-core (tests/support/browser.ts). Nothing is sent anywhere: the registration form is
 * filled in with an example person but never submitted.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { repoRoot } from '@sinilill/config';
import { launchBrowser } from '../../tests/support/browser';
import { startStack, type RunningStack } from '../../tests/support/stack';

const ASSETS = join(repoRoot, 'web/src/features/guide/assets');
/** Widest the guide shows a screenshot (CSS px); images are saved at this width at most. */
const MAX_WIDTH = 720;
const LANGS = { et: 'est', en: 'eng' } as const;
type Lang = keyof typeof LANGS;

/** The example person typed into the registration form (not submitted). */
const EXAMPLE = {
  et: { email: 'mari.maasikas@example.ee', fullName: 'Mari Maasikas' },
  en: { email: 'mary.smith@example.ee', fullName: 'Mary Smith' },
} as const;

interface Shot {
  id: 'register' | 'progress';
  /** Opens the page, prepares it and answers the element to capture. */
  prepare(page: Page, baseUrl: string, lang: Lang): Promise<Locator>;
}

const SHOTS: Shot[] = [
  {
    id: 'register',
    async prepare(page, baseUrl, lang) {
      await page.goto(`${baseUrl}/register`);
      await page.getByTestId('step-user-information').waitFor();
      await page.fill('[name="email"]', EXAMPLE[lang].email);
      await page.fill('[name="full_name"]', EXAMPLE[lang].fullName);
      await page.fill('[name="password"]', 'sinilill-2025');
      await page.fill('[name="password_confirmation"]', 'sinilill-2025');
      await page.selectOption('[name="birth_year"]', '1985');
      await page.selectOption('[name="gender"]', 'FEMALE');
      // No focus ring in the picture.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      return page.getByTestId('register-page');
    },
  },
  {
    id: 'progress',
    async prepare(page, baseUrl) {
      await page.goto(baseUrl);
      await page.getByTestId('team-dot').first().waitFor({ timeout: 30_000 });
      return page.locator('section', { has: page.locator('#route-heading') });
    },
  },
];

async function shoot(browser: Browser, stack: RunningStack, lang: Lang, sizes: Record<string, Record<string, { width: number; height: number }>>) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1400 }, deviceScaleFactor: 1, reducedMotion: 'reduce' });
  await context.addInitScript((stored) => window.localStorage.setItem('lang', stored), LANGS[lang]);
  const page = await context.newPage();
  try {
    for (const shot of SHOTS) {
      const element = await shot.prepare(page, stack.baseUrl, lang);
      await element.scrollIntoViewIfNeeded();
      // Fonts and the last layout settle before the picture.
      await page.evaluate(() => document.fonts.ready);
      const png = await element.screenshot({ animations: 'disabled', caret: 'hide' });
      const image = sharp(png).resize({ width: MAX_WIDTH, withoutEnlargement: true });
      const { data, info } = await image.webp({ quality: 78, effort: 6 }).toBuffer({ resolveWithObject: true });
      mkdirSync(join(ASSETS, lang), { recursive: true });
      writeFileSync(join(ASSETS, lang, `${shot.id}.webp`), data);
      (sizes[shot.id] ??= {})[lang] = { width: info.width, height: info.height };
      console.log(`${lang}/${shot.id}.webp  ${info.width}×${info.height}  ${(data.length / 1024).toFixed(1)} KB`);
    }
  } finally {
    await context.close();
  }
}

async function main() {
  if (!process.argv.includes('--no-build')) {
    const build = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: repoRoot, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('the web client did not build');
  }
  console.log('starting the app (embedded PostgreSQL, Redis, the 2025 import)…');
  const [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  try {
    const sizes: Record<string, Record<string, { width: number; height: number }>> = {};
    for (const lang of Object.keys(LANGS) as Lang[]) await shoot(browser, stack, lang, sizes);
    writeFileSync(join(ASSETS, 'sizes.json'), `${JSON.stringify(sizes, null, 2)}\n`);
  } finally {
    await browser.close();
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
