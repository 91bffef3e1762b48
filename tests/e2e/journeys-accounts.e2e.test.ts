/**
 * Accounts, mail and the registration limits as people meet them, in headless Chromium against
 * `npm start` (the 2025 export imported), in Estonian and in English, at 1440 px.
 *
 * - A returning 2025 participant who registers again is not told "e-mail in use": the page says
 *   "check your mail" as for anyone, nothing is created, and the mail brings a login link and a
 *   link to set a password, which works. Forgot-password says the same for an unknown address as
 *   for a known one, and mails only the known one.
 * - Links in mails carry the mail's language: they open the site in it on a device that never
 *   chose one, and win once over the other language a device chose.
 * - A password too easy to guess is refused on the wizard's first step, with the field marked and
 *   a message saying what makes one strong enough (the server's rule, asked of the server).
 * - My data's file is named in the page's language.
 * - The registration limit says when to try again, in the page's language and Tallinn time (the
 *   limits' numbers are tested in tests/int/rate-limits.int.test.ts). Last: it spends the minute's
 *   registrations of this address.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { repoRoot } from '@sinilill/config';
import { fixturePeople } from '../support/app';
import { launchBrowser } from '../support/browser';
import { e2eKit, message, type Lang, type Mail } from '../support/e2e-kit';
import type { RunningStack } from '../support/stack';
import { sharedStack, E2E_STACKS } from '../support/shared-stack';

let stack: RunningStack;
let browser: Browser;
const kit = e2eKit(() => stack, () => browser);
const LANGS = ['est', 'eng'] as const;
const WIDTH = 1440;

beforeAll(async () => {
  [stack, browser] = await Promise.all([sharedStack(E2E_STACKS.april30), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A text of the client in `lang`: `key` ("section.name") in web/src/<folder>/{et,en}.json. */
function text(folder: string, key: string, lang: Lang): string {
  const file = JSON.parse(readFileSync(join(repoRoot, 'web/src', folder, `${lang === 'est' ? 'et' : 'en'}.json`), 'utf8')) as Record<string, unknown>;
  const found = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], file);
  if (typeof found !== 'string') throw new Error(`no ${lang} text ${key} in ${folder}`);
  return found;
}

const squash = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> | null; retryAfter: string | null }> {
  const response = await fetch(`${stack.baseUrl}/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json().catch(() => null) as Record<string, unknown> | null, retryAfter: response.headers.get('retry-after') };
}

/** Every mail MailDev holds to `address`. */
async function mailsTo(address: string): Promise<Mail[]> {
  const inbox = /mail inbox \(MailDev\): (\S+)/.exec(stack.output())![1]!;
  const mails = await (await fetch(`${inbox}/email`)).json() as Mail[];
  return mails.filter((m) => m.to.some((t) => t.address === address));
}

/** How many events of `type` the log holds. */
const countEvents = (type: string) => kit.withDatabase(async (client) =>
  Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM es.events WHERE type = $1', [type])).rows[0]!.n));

/** The page's language as i18next set it on <html>, and the stored choice. */
async function pageLanguage(page: Page): Promise<{ html: string; stored: string | null; search: string }> {
  return page.evaluate(() => ({ html: document.documentElement.lang, stored: window.localStorage.getItem('lang'), search: window.location.search }));
}

const people = fixturePeople();
const returning = { est: people.find((p) => p.id === 300)!, eng: people.find((p) => p.id === 301)! };
const forgetful = { est: people.find((p) => p.id === 302)!, eng: people.find((p) => p.id === 303)! };
const curious = { est: people.find((p) => p.id === 304)!, eng: people.find((p) => p.id === 305)! };
const NEW_PASSWORD = 'Kevadine jalutuskäik 2026';

describe('a returning 2025 participant registers again', () => {
  for (const lang of LANGS) {
    test(`the page says "check your mail", nothing is created, the mail's password link works (${lang})`, { timeout: 90_000 }, async () => {
      const person = returning[lang];
      const [users, teams] = [await countEvents('UserRegistered'), await countEvents('TeamRegistered')];
      const { context, page } = await kit.newPage(lang, WIDTH);
      await kit.register(page, { email: person.email, fullName: person.fullName, password: 'Tagasi jälle 2026!', type: 'REGISTER_TEAM', teamName: `Tagasitulijad ${lang}` });
      await page.waitForURL(/\/success$/);
      expect(squash(await page.getByTestId('registration-success').textContent())).toContain(squash(text('features/registration/locales', 'success.confirm', lang)));
      expect([await countEvents('UserRegistered'), await countEvents('TeamRegistered')]).toEqual([users, teams]);

      const mail = await kit.mailTo(person.email, lang === 'est' ? /juba olemas/ : /already have/);
      expect(mail.text).toContain(lang === 'est' ? 'sinu kontol pole veel parooli' : 'your account has no password yet');
      expect(mail.text).toMatch(new RegExp(`/login\\?lang=${lang}`));
      const reset = kit.linkIn(mail, '/passwordreset');
      expect(reset).toContain(`lang=${lang}`);
      await page.goto(reset);
      await page.fill('[name="password"]', NEW_PASSWORD);
      await page.fill('[name="password_confirmation"]', NEW_PASSWORD);
      await page.getByTestId('reset-submit').click();
      await page.getByTestId('alert-success').waitFor();
      await kit.login(page, person.email, NEW_PASSWORD);
      await page.waitForURL(/\/(team|pay)$/);
      await context.close();
    });
  }
});

describe('forgot password answers alike whether or not the address has an account', () => {
  for (const lang of LANGS) {
    test(`an unknown address gets the known one's message and no mail (${lang})`, async () => {
      const unknown = `nobody-${lang}-${Date.now()}@example.ee`;
      const { context, page } = await kit.newPage(lang, WIDTH);
      const shown: string[] = [];
      for (const email of [unknown, forgetful[lang].email]) {
        await page.goto(`${stack.baseUrl}/login?type=forgot`);
        await page.fill('[name="email"]', email);
        await page.getByTestId('forgot-submit').click();
        await page.getByTestId('alert-success').waitFor();
        shown.push(squash(await page.getByTestId('alert-success').textContent()));
      }
      expect(shown[0]).toBe(text('features/auth/locales', 'forgot.sent', lang));
      expect(shown[1]).toBe(shown[0]);
      // The known address's mail arrives; by then the unknown one's would have too.
      await kit.mailTo(forgetful[lang].email, /parool|password/i);
      expect(await mailsTo(unknown)).toEqual([]);
      await context.close();
    });
  }
});

describe("a mail's links open the site in the mail's language", () => {
  for (const lang of LANGS) {
    const other: Lang = lang === 'est' ? 'eng' : 'est';
    test(`a ${lang} confirmation link on a device without a language, a ${lang} reset link on a device set to ${other} (${lang})`, { timeout: 90_000 }, async () => {
      const email = `keelelink-${lang}@example.ee`;
      const password = 'Linnulaul hommikul 7!';
      const registering = await kit.newPage(lang, WIDTH);
      await kit.register(registering.page, { email, fullName: 'Keele Link', password, type: 'REGISTER_TEAM', teamName: `Keelelingid ${lang}` });
      await registering.page.waitForURL(/\/success$/);
      await registering.context.close();
      const expectedHtml = lang === 'est' ? 'et' : 'en';

      // A device that never visited: a plain context, nothing stored.
      const fresh = await browser.newContext({ viewport: { width: WIDTH, height: 900 } });
      const page = await fresh.newPage();
      await page.goto(kit.linkIn(await kit.mailTo(email, /Kinnita|Confirm/), '/confirm/account'));
      await page.getByTestId('confirm-submit').waitFor();
      expect(await pageLanguage(page)).toEqual({ html: expectedHtml, stored: lang, search: '' });
      expect(squash(await page.getByTestId('confirm-submit').textContent())).toBe(squash(text('features/auth/locales', 'confirm.submit', lang)));
      await fresh.close();

      // A device that chose the other language: the link wins, and the choice stays.
      expect((await post('/requestpasswordreset', { email, lang })).status).toBe(200);
      const chosen = await kit.newPage(other, WIDTH);
      await chosen.page.goto(kit.linkIn(await kit.mailTo(email, /parool|password/i), '/passwordreset'));
      await chosen.page.getByTestId('reset-submit').waitFor();
      expect(await pageLanguage(chosen.page)).toEqual({ html: expectedHtml, stored: lang, search: '' });
      expect(squash(await chosen.page.getByTestId('reset-submit').textContent())).toBe(squash(text('features/auth/locales', 'reset.submit', lang)));
      await chosen.context.close();
    });
  }
});

describe('a password too easy to guess is refused on the first step', () => {
  for (const lang of LANGS) {
    test(`"password1" keeps the wizard on step 1 with the field marked and the reason; a strong one goes on (${lang})`, async () => {
      const { context, page } = await kit.newPage(lang, WIDTH);
      await kit.register(page, { email: `weak-${lang}@example.ee`, fullName: 'Nõrk Parool', password: 'password1', type: 'REGISTER_TEAM', teamName: `Nõrgad ${lang}` });
      const field = page.locator('[name="password"]');
      await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByTestId('step-user-information').isVisible()).toBe(true);
      const describedBy = (await field.getAttribute('aria-describedby'))!.split(' ');
      const problem = squash(await page.locator(`[id="${describedBy[0]}"]`).textContent());
      expect(problem).toBe(message(lang, 'PASSWORD_TOO_WEAK'));
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('password');

      await page.fill('[name="password"]', 'Sinilill jookseb 2026!');
      await page.fill('[name="password_confirmation"]', 'Sinilill jookseb 2026!');
      expect(await field.getAttribute('aria-invalid')).toBe('false');
      await page.getByTestId('wizard-next').click();
      await page.getByTestId('step-register-type').waitFor();
      await context.close();
    });
  }
});

describe("my data's file is named in the page's language", () => {
  for (const lang of LANGS) {
    test(`the JSON and CSV downloads (${lang})`, { timeout: 60_000 }, async () => {
      const { context, page } = await kit.newPage(lang, WIDTH);
      await kit.setPasswordByMail(page, curious[lang].email, NEW_PASSWORD);
      await kit.login(page, curious[lang].email, NEW_PASSWORD);
      await page.waitForURL(/\/(team|pay)$/);
      await page.goto(`${stack.baseUrl}/account`);
      const name = lang === 'est' ? 'minu-andmed' : 'my-data';
      for (const format of ['json', 'csv'] as const) {
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(`my-data-download-${format}`).click()]);
        expect(download.suggestedFilename()).toMatch(new RegExp(`^sinilill-${name}-\\d{4}-\\d{2}-\\d{2}\\.${format}$`));
      }
      await context.close();
    });
  }
});

describe('the registration limit says when to try again', () => {
  for (const lang of LANGS) {
    test(`after a burst from this address the wizard names the time, in Tallinn time (${lang})`, { timeout: 90_000 }, async () => {
      // Spend this minute's registrations of the address (the test's and the browser's: 127.0.0.1).
      let refused = false;
      for (let i = 0; i < 15 && !refused; i++) {
        const answer = await post('/registerteam', {
          full_name: 'Kiire Skript', email: `skript-${lang}-${i}-${Date.now()}@example.ee`, gender: 'FEMALE', birth_year: 1990,
          password: 'Skriptide vool 2026!', newsletter: false, type: 'REGISTER_TEAM', team_name: `Skript ${lang} ${i} ${Date.now()}`, lang,
        });
        refused = answer.status === 429;
      }
      expect(refused).toBe(true);
      const { context, page } = await kit.newPage(lang, WIDTH);
      const before = Date.now();
      await kit.register(page, { email: `group-${lang}@example.ee`, fullName: 'Rühma Liige', password: 'Rühmaga koos 2026!', type: 'REGISTER_TEAM', teamName: `Rühm ${lang}` });
      const alert = page.getByTestId('alert-error');
      await alert.waitFor();
      const shown = squash(await alert.textContent());
      const intro = text('features/registration/locales', 'tooMany_other', lang).split('{{time}}')[0]!;
      expect(shown.startsWith(intro)).toBe(true);
      const time = /(\d{2}):(\d{2})/.exec(shown.slice(intro.length));
      expect(time).not.toBeNull();
      // Retry-After is at most the minute's window: the time named is now or within a minute, in Tallinn.
      const tallinn = (ms: number) => new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Tallinn', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
      expect([tallinn(before), tallinn(before + 61_000), tallinn(Date.now() + 61_000)]).toContain(`${time![1]}:${time![2]}`);
      expect(shown).not.toBe(message(lang, 'TOO_MANY_REQUESTS'));
      await context.close();
    });
  }
});
