/**
 * Accounts as a new user tries them (issue 3), in headless Chromium against `npm start`, with the
 * mail read from the local MailDev inbox the launcher starts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import pg from 'pg';
import { repoRoot } from '@sinilill/config';
import { launchBrowser } from '../support/browser';
import { eventually, startStack, type RunningStack } from '../support/stack';

let stack: RunningStack;
let browser: Browser;
const artifacts = join(repoRoot, 'test-results');
const catalogue = {
  est: JSON.parse(readFileSync(join(repoRoot, 'web/src/lib/errors/locales/et.json'), 'utf8')) as Record<string, string>,
  eng: JSON.parse(readFileSync(join(repoRoot, 'web/src/lib/errors/locales/en.json'), 'utf8')) as Record<string, string>,
};
/** The catalogue text of a code; the files may nest codes under a key. */
function message(lang: 'est' | 'eng', code: string, values: Record<string, string> = {}): string {
  const texts = catalogue[lang] as Record<string, unknown>;
  const found = (texts[code] ?? (texts.errors as Record<string, string> | undefined)?.[code]) as string | undefined;
  if (!found) throw new Error(`no ${lang} text for ${code}`);
  return found.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, key: string) => values[key] ?? '').trim();
}

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const port = () => Number(new URL(stack.baseUrl).port);
const inboxUrl = () => /mail inbox \(MailDev\): (\S+)/.exec(stack.output())![1]!;

interface Mail { subject: string; text: string; to: { address: string }[] }
async function mailTo(address: string, subjectPart: RegExp): Promise<Mail> {
  let found: Mail | undefined;
  await eventually(async () => {
    const mails = await (await fetch(`${inboxUrl()}/email`)).json() as Mail[];
    found = mails.reverse().find((m) => m.to.some((t) => t.address === address) && subjectPart.test(m.subject));
    return found !== undefined;
  }, 20_000);
  return found!;
}
function linkIn(mail: Mail, path: string): string {
  const match = new RegExp(`https?://[^\\s]+${path}/[^\\s]+`).exec(mail.text);
  if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
  return match[0].replace(/^https?:\/\/[^/]+/, stack.baseUrl);
}
async function joinCodeOf(teamName: string): Promise<string> {
  const client = new pg.Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${port() + 3}/sinilill` });
  await client.connect();
  try {
    const { rows } = await client.query<{ code: string }>(
      "SELECT data->>'joinCode' AS code FROM es.events WHERE type = 'TeamRegistered' AND data->>'teamName' = $1", [teamName]);
    return rows[0]!.code;
  } finally {
    await client.end();
  }
}

async function newPage(lang: 'est' | 'eng' = 'est', width = 1440): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await context.addInitScript((l) => { if (!window.localStorage.getItem('lang')) window.localStorage.setItem('lang', l); }, lang);
  return { context, page: await context.newPage() };
}

interface Registration {
  email: string; fullName: string; password: string; confirmation?: string; birthYear?: string;
  type: 'REGISTER_TEAM' | 'JOIN_TEAM'; teamName?: string; joinCode?: string;
}
async function register(page: Page, r: Registration): Promise<void> {
  await page.goto(`${stack.baseUrl}/register`);
  await page.getByTestId('step-user-information').waitFor();
  await page.fill('[name="email"]', r.email);
  await page.fill('[name="full_name"]', r.fullName);
  await page.fill('[name="password"]', r.password);
  await page.fill('[name="password_confirmation"]', r.confirmation ?? r.password);
  await page.selectOption('[name="birth_year"]', r.birthYear ?? '1985');
  await page.selectOption('[name="gender"]', 'FEMALE');
  await page.getByTestId('wizard-next').click();
  if (!(await page.getByTestId('step-register-type').isVisible())) return; // refused on step 1
  await page.check(`[name="type"][value="${r.type}"]`);
  await page.getByTestId('wizard-next').click();
  await page.getByTestId('step-team-infromation').waitFor();
  if (r.type === 'REGISTER_TEAM') await page.fill('[name="team_name"]', r.teamName!);
  else await page.fill('[name="team_join_code"]', r.joinCode!);
  await page.getByTestId('wizard-submit').click();
}
async function login(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${stack.baseUrl}/login`);
  await page.fill('[name="email"]', email);
  await page.fill('[name="password"]', password);
  await page.getByTestId('login-submit').click();
}
async function confirmFromMail(page: Page, email: string): Promise<void> {
  const mail = await mailTo(email, /Kinnita|Confirm/);
  await page.goto(linkIn(mail, '/confirm/account'));
  await page.getByTestId('confirm-submit').click();
  await page.getByTestId('alert-success').waitFor();
}

const captain = { email: 'kapten@example.ee', fullName: 'Kärt Kapten', password: 'sinilill-2025', teamName: 'Tallinna Tormilinnud' };

describe('a new team: register, confirm by mail, log in, and a teammate joins with the code', () => {
  test('the captain registers a team, confirms from the inbox and lands on the pay route', async () => {
    const { context, page } = await newPage('est');
    await register(page, { ...captain, type: 'REGISTER_TEAM' });
    await page.waitForURL(/\/success$/);
    await confirmFromMail(page, captain.email);
    await login(page, captain.email, captain.password);
    await page.waitForURL(/\/pay$/); // new participants have not paid yet (spec §2)
    expect(await page.getByTestId('nav-account').isVisible()).toBe(true);
    expect(await page.getByTestId('not-paid-banner').isVisible()).toBe(true);
    const stored = await page.evaluate('window.localStorage.getItem("token")') as string;
    expect(stored).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    await page.screenshot({ path: join(artifacts, 'accounts-pay-1440-et.png'), fullPage: true });
    await context.close();
  });

  test('a second visitor joins with the team code, confirms and logs in (English)', async () => {
    const code = await joinCodeOf(captain.teamName);
    const { context, page } = await newPage('eng');
    await register(page, { email: 'liige@example.ee', fullName: 'Leo Liige', password: 'teammate-1', type: 'JOIN_TEAM', joinCode: code });
    await page.waitForURL(/\/success$/);
    await confirmFromMail(page, 'liige@example.ee');
    await login(page, 'liige@example.ee', 'teammate-1');
    await page.waitForURL(/\/pay$/);
    await page.goto(`${stack.baseUrl}/team`);
    expect(await page.getByTestId('team-name').textContent()).toBe(captain.teamName);
    await context.close();
  });
});

describe('each refusal shows its catalogue message, in both languages', () => {
  const cases: [string, string, (page: Page, lang: string) => Promise<void>][] = [
    ['wrong password', 'INVALID_CREDENTIALS', (page) => login(page, captain.email, 'not-the-password')],
    ['unapproved login', 'USER_NOT_APPROVED', async (page, lang) => {
      const email = `unconfirmed-${lang}@example.ee`;
      await register(page, { email, fullName: 'Ulla Kinnitamata', password: 'waiting-1', type: 'REGISTER_TEAM', teamName: `Ootajad ${lang}` });
      await page.waitForURL(/\/success$/);
      await login(page, email, 'waiting-1');
    }],
    ['duplicate email', 'EMAIL_ALREADY_IN_USE', (page) => register(page, { email: captain.email, fullName: 'Teine Kärt', password: 'another-1', type: 'REGISTER_TEAM', teamName: 'Uus tiim' })],
    ['taken team name', 'TEAM_NAME_ALREADY_IN_USE', (page, lang) => register(page, { email: `copycat-${lang}@example.ee`, fullName: 'Kopeerija', password: 'copycat-1', type: 'REGISTER_TEAM', teamName: `  ${captain.teamName.toUpperCase()} ` })],
    ['bad join code', 'INVALID_JOIN_CODE', (page, lang) => register(page, { email: `stray-${lang}@example.ee`, fullName: 'Eksinud', password: 'stray-12', type: 'JOIN_TEAM', joinCode: 'NOPE1234' })],
    ['mismatched passwords', 'PASSWORDS_DONT_MATCH', (page) => register(page, { email: 'mismatch@example.ee', fullName: 'Mati', password: 'first-one', confirmation: 'second-one', type: 'REGISTER_TEAM', teamName: 'X' })],
    ['a too-short password', 'PASSWORD_TOO_SHORT', (page) => register(page, { email: 'short@example.ee', fullName: 'Lühike', password: 'abc', type: 'REGISTER_TEAM', teamName: 'Y' })],
  ];
  for (const lang of ['est', 'eng'] as const) {
    for (const [name, code, act] of cases) {
      test(`${name} → ${code} (${lang})`, async () => {
        const { context, page } = await newPage(lang);
        await act(page, lang);
        await expect.poll(async () => (await page.locator('main').textContent()) ?? '', { timeout: 10_000 }).toContain(message(lang, code, { min: '6', count: '6' }));
        await context.close();
      });
    }
  }
});

describe('passwords', () => {
  test('an imported 2025 participant sets a password through forgot-password and logs in', async () => {
    const { context, page } = await newPage('est');
    await page.goto(`${stack.baseUrl}/login?type=forgot`);
    await page.fill('[name="email"]', 'participant1@example.ee');
    await page.getByTestId('forgot-submit').click();
    await page.getByTestId('alert-success').waitFor();
    const mail = await mailTo('participant1@example.ee', /parool|password/i);
    await page.goto(linkIn(mail, '/passwordreset'));
    await page.fill('[name="newPassword"], [name="password"]', 'kaja-uus-1');
    await page.fill('[name="confirmation"], [name="password_confirmation"]', 'kaja-uus-1');
    await page.getByTestId('reset-submit').click();
    await page.getByTestId('alert-success').waitFor();
    await login(page, 'participant1@example.ee', 'kaja-uus-1');
    await page.waitForURL(/\/team$/); // paid in 2025 (fixture), so the team route
    expect(await page.getByTestId('team-name').textContent()).toBe('Haapsalu Sõbrad');
    await context.close();
  });

  test('changing the password works end to end (success alert, fields cleared, new password logs in)', async () => {
    const { context, page } = await newPage('eng');
    await login(page, captain.email, captain.password);
    await page.waitForURL(/\/pay$/);
    await page.goto(`${stack.baseUrl}/account`);
    await page.fill('[name="currentPassword"]', captain.password);
    await page.fill('[name="newPassword"]', 'sinilill-2026');
    await page.fill('[name="confirmation"]', 'sinilill-2026');
    await page.getByTestId('change-password-submit').click();
    await page.getByTestId('alert-success').waitFor();
    expect(await page.inputValue('[name="currentPassword"]')).toBe('');
    await page.getByTestId('nav-logout').click();
    await login(page, captain.email, 'sinilill-2026');
    await page.waitForURL(/\/pay$/);
    captain.password = 'sinilill-2026';
    await context.close();
  });
});

describe('a tampered, expired or alg:none token gets 401 and the client clears the session', () => {
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const claims = (exp: number) => ({ userId: 'x', fullName: 'Mallory', is_approved: true, participantId: 1, teamId: 1, role: 'ADMIN', isPaid: true, iat: Math.floor(Date.now() / 1000), exp });
  const tokens: [string, () => Promise<string>][] = [
    ['tampered', async () => {
      const response = await fetch(`${stack.baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: captain.email, password: captain.password }) });
      const { token } = await response.json() as { token: string };
      const [header, , signature] = token.split('.');
      return `${header}.${b64(claims(Math.floor(Date.now() / 1000) + 3600))}.${signature}`;
    }],
    ['alg:none', async () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims(Math.floor(Date.now() / 1000) + 3600))}.`],
    ['expired', async () => `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims(Math.floor(Date.now() / 1000) - 60))}.c2lnbmF0dXJl`],
  ];
  for (const [name, make] of tokens) {
    test(name, async () => {
      const token = await make();
      const api = await fetch(`${stack.baseUrl}/api/account/changepassword`, {
        method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ currentPassword: 'whatever', newPassword: 'whatever-2' }),
      });
      expect(api.status).toBe(401);
      const { context, page } = await newPage('eng');
      await context.addInitScript((t) => window.localStorage.setItem('token', `Bearer ${t}`), token);
      await page.goto(`${stack.baseUrl}/account`);
      if (await page.locator('[name="currentPassword"]').isVisible().catch(() => false)) {
        await page.fill('[name="currentPassword"]', 'whatever');
        await page.fill('[name="newPassword"]', 'whatever-2');
        await page.fill('[name="confirmation"]', 'whatever-2');
        await page.getByTestId('change-password-submit').click();
      }
      await page.getByTestId('nav-login').waitFor();
      expect(await page.evaluate('window.localStorage.getItem("token")')).toBeNull();
      await context.close();
    });
  }
});
