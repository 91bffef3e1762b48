/**
 * What the browser tests share: a page in a chosen language and width, the catalogue texts, the
 * local MailDev inbox the launcher starts, logging in, setting an imported person's first
 * password through forgot-password, and reading the stack's own database.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import pg from 'pg';
import { repoRoot } from '@sinilill/config';
import { eventually, type RunningStack } from './stack';

export type Lang = 'est' | 'eng';

const catalogue = {
  est: JSON.parse(readFileSync(join(repoRoot, 'web/src/lib/errors/locales/et.json'), 'utf8')) as Record<string, unknown>,
  eng: JSON.parse(readFileSync(join(repoRoot, 'web/src/lib/errors/locales/en.json'), 'utf8')) as Record<string, unknown>,
};

/** The catalogue text of an error code in `lang`, with {{values}} filled in (the files may nest codes under `errors`). */
export function message(lang: Lang, code: string, values: Record<string, string> = {}): string {
  const texts = catalogue[lang];
  const found = (texts[code] ?? (texts.errors as Record<string, string> | undefined)?.[code]) as string | undefined;
  if (!found) throw new Error(`no ${lang} text for ${code}`);
  return found.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, key: string) => values[key] ?? '').trim();
}

export interface Mail { subject: string; text: string; to: { address: string }[] }

/** What the registration wizard is filled with (spec §2 "Registration", three steps). */
export interface Registration {
  email: string; fullName: string; password: string; confirmation?: string; birthYear?: string;
  type: 'REGISTER_TEAM' | 'JOIN_TEAM'; teamName?: string; joinCode?: string;
  /** Ticks the company-team box of the last step (REGISTER_TEAM only). */
  company?: boolean;
}

/** Helpers bound to one running stack and browser. */
export function e2eKit(stack: () => RunningStack, browser: () => Browser) {
  const port = () => Number(new URL(stack().baseUrl).port);
  const inboxUrl = () => /mail inbox \(MailDev\): (\S+)/.exec(stack().output())![1]!;

  /** The newest mail to `address` whose subject matches (waits up to 20 s). */
  async function mailTo(address: string, subjectPart: RegExp): Promise<Mail> {
    let found: Mail | undefined;
    await eventually(async () => {
      const mails = await (await fetch(`${inboxUrl()}/email`)).json() as Mail[];
      found = mails.reverse().find((m) => m.to.some((t) => t.address === address) && subjectPart.test(m.subject));
      return found !== undefined;
    }, 20_000);
    return found!;
  }

  /** The first link in `mail` whose path starts with `path`, rebased on the stack's URL. */
  function linkIn(mail: Mail, path: string): string {
    const match = new RegExp(`https?://[^\\s]+${path}/[^\\s]+`).exec(mail.text);
    if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
    return match[0].replace(/^https?:\/\/[^/]+/, stack().baseUrl);
  }

  /** Runs `work` with a client of the stack's embedded PostgreSQL (port PORT+3, database sinilill). */
  async function withDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${port() + 3}/sinilill` });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }

  /** A fresh browser context whose first load uses `lang`, `width` px wide. */
  async function newPage(lang: Lang = 'est', width = 1440): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser().newContext({ viewport: { width, height: 900 } });
    await context.addInitScript((l) => { if (!window.localStorage.getItem('lang')) window.localStorage.setItem('lang', l); }, lang);
    return { context, page: await context.newPage() };
  }

  /** Fills and submits the login form (does not wait for the outcome). */
  async function login(page: Page, email: string, password: string): Promise<void> {
    await page.goto(`${stack().baseUrl}/login`);
    await page.fill('[name="email"]', email);
    await page.fill('[name="password"]', password);
    await page.getByTestId('login-submit').click();
  }

  /** An imported person's first password, as they set it: forgot-password, the mailed link, the reset form. */
  async function setPasswordByMail(page: Page, email: string, password: string): Promise<void> {
    await page.goto(`${stack().baseUrl}/login?type=forgot`);
    await page.fill('[name="email"]', email);
    await page.getByTestId('forgot-submit').click();
    await page.getByTestId('alert-success').waitFor();
    const mail = await mailTo(email, /parool|password/i);
    await page.goto(linkIn(mail, '/passwordreset'));
    await page.fill('[name="newPassword"], [name="password"]', password);
    await page.fill('[name="confirmation"], [name="password_confirmation"]', password);
    await page.getByTestId('reset-submit').click();
    await page.getByTestId('alert-success').waitFor();
  }

  /** Walks the registration wizard and submits it (stops early when step 1 refuses). */
  async function register(page: Page, r: Registration): Promise<void> {
    await page.goto(`${stack().baseUrl}/register`);
    await page.getByTestId('step-user-information').waitFor();
    await page.fill('[name="email"]', r.email);
    await page.fill('[name="full_name"]', r.fullName);
    await page.fill('[name="password"]', r.password);
    await page.fill('[name="password_confirmation"]', r.confirmation ?? r.password);
    await page.selectOption('[name="birth_year"]', r.birthYear ?? '1985');
    await page.selectOption('[name="gender"]', 'FEMALE');
    await page.getByTestId('wizard-next').click();
    // Step 1 may wait for the server's password check: the next step, or a marked field.
    await page.locator('[data-testid="step-register-type"], [aria-invalid="true"]').first().waitFor();
    if (!(await page.getByTestId('step-register-type').isVisible())) return; // refused on step 1
    await page.check(`[name="type"][value="${r.type}"]`);
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('step-team-infromation').waitFor();
    if (r.type === 'REGISTER_TEAM') await page.fill('[name="team_name"]', r.teamName!);
    else await page.fill('[name="team_join_code"]', r.joinCode!);
    if (r.company) await page.check('[name="company"]');
    await page.getByTestId('wizard-submit').click();
  }

  /** Follows the confirmation link mailed to `email` and confirms the account. */
  async function confirmFromMail(page: Page, email: string): Promise<void> {
    const mail = await mailTo(email, /Kinnita|Confirm/);
    await page.goto(linkIn(mail, '/confirm/account'));
    await page.getByTestId('confirm-submit').click();
    await page.getByTestId('alert-success').waitFor();
  }

  return { port, mailTo, linkIn, withDatabase, newPage, login, setPasswordByMail, register, confirmFromMail };
}
