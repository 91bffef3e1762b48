/**
 * Announcements in the browser, against `npm start` with its MailDev inbox:
 * the administrator writes an announcement in both languages in the console's "Teated" tab and
 * sends it to the newsletter subscribers; the progress reaches "sent"; each subscriber's mail
 * arrives in their registration language; the mail's unsubscribe link opens the public page
 * without login and unsubscribes. axe finds no serious or critical violation on the tab and the
 * page, in Estonian and English.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { e2eKit } from '../support/e2e-kit';
import { eventually, type RunningStack } from '../support/stack';
import { E2E_ADMIN, sharedStack, E2E_STACKS } from '../support/shared-stack';

let stack: RunningStack;
let browser: Browser;
const { mailTo, linkIn, newPage, login } = e2eKit(() => stack, () => browser);
const ADMIN = E2E_ADMIN;
const PEOPLE = [
  { email: 'uudis-et@example.ee', full_name: 'Ülle Uudis', lang: 'est', team_name: 'Uudistajad' },
  { email: 'news-en@example.com', full_name: 'Nora News', lang: 'eng', team_name: 'Newshounds' },
] as const;

/** axe-core's serious and critical violations (WCAG 2.0–2.2 A/AA), as layout.e2e.test.ts checks them. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).setLegacyMode(true).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

beforeAll(async () => {
  [stack, browser] = await Promise.all([sharedStack(E2E_STACKS.april30), launchBrowser()]);
  for (const person of PEOPLE) {
    const response = await fetch(`${stack.baseUrl}/api/registerteam`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...person, gender: 'FEMALE', birth_year: 1985, password: 'uudiskiri-2025', newsletter: true, type: 'REGISTER_TEAM' }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  }
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('announcements', () => {
  test('the administrator sends one in both languages; each subscriber gets it in their language; the link unsubscribes without login', async () => {
    const { context, page } = await newPage('est');
    await login(page, ADMIN.email, ADMIN.password);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await page.goto(`${stack.baseUrl}/admin?tab=announcements`);
    await page.getByTestId('announcements').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByTestId('announcement-subject-et').fill('Kevadine teade');
    await page.getByTestId('announcement-body-et').fill('Tere!\n\nSinilill algab 1. aprillil.');
    await page.getByTestId('announcement-subject-en').fill('Spring notice');
    await page.getByTestId('announcement-body-en').fill('Hello!\n\nSinilill starts on 1 April.');
    await page.getByTestId('announcement-send').click();
    await page.getByTestId('announcement-confirm-yes').click();
    await page.getByTestId('alert-success').waitFor();
    await eventually(async () => (await page.getByTestId('announcement-sent').first().textContent()) === '2', 20_000);
    expect(await page.getByTestId('announcement-queued').first().textContent()).toBe('2');
    expect(await page.getByTestId('announcement-failed').first().textContent()).toBe('0');
    await context.close();

    const et = await mailTo(PEOPLE[0].email, /Kevadine teade/);
    expect(et.text).toContain('Sinilill algab 1. aprillil.');
    expect(et.text).toContain('Loobu uudiskirjast');
    const en = await mailTo(PEOPLE[1].email, /Spring notice/);
    expect(en.text).toContain('Sinilill starts on 1 April.');
    expect(en.text).not.toContain('algab');

    // The English subscriber follows the link: no login, a confirming press, done.
    const visitor = await newPage('eng');
    await visitor.page.goto(linkIn(en, '/unsubscribe'));
    await visitor.page.getByTestId('unsubscribe-page').waitFor();
    expect(await visitor.page.getByRole('heading', { level: 1 }).first().textContent()).toMatch(/Unsubscribe/);
    expect(await seriousViolations(visitor.page)).toEqual([]);
    await visitor.page.getByTestId('unsubscribe-submit').click();
    await visitor.page.getByTestId('unsubscribe-done').waitFor();
    expect(await seriousViolations(visitor.page)).toEqual([]);
    // A forged link says so in the page's language.
    await visitor.page.goto(linkIn(en, '/unsubscribe').replace(/\.[A-Za-z0-9_-]{22}(?=\?|$)/, '.AAAAAAAAAAAAAAAAAAAAAA'));
    await visitor.page.getByTestId('unsubscribe-submit').click();
    await visitor.page.getByTestId('alert-error').waitFor();
    await visitor.context.close();

    // The Estonian page, and the tab in English, pass axe too.
    const estonian = await newPage('est');
    await estonian.page.goto(linkIn(et, '/unsubscribe'));
    await estonian.page.getByTestId('unsubscribe-page').waitFor();
    expect(await seriousViolations(estonian.page)).toEqual([]);
    await estonian.context.close();
    const english = await newPage('eng');
    await login(english.page, ADMIN.email, ADMIN.password);
    await english.page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await english.page.goto(`${stack.baseUrl}/admin?tab=announcements`);
    await english.page.getByTestId('announcement-row').first().waitFor();
    expect(await seriousViolations(english.page)).toEqual([]);
    await english.context.close();
  });
});
