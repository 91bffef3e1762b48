/**
 * Money in view, in headless Chromium against `npm start` with the sandbox payment provider, in
 * both languages at the width where each problem was found:
 *
 * - 1440 px: the 2025 import's paid marks count as the fees they stand for (15 EUR born 2010 or
 *   earlier, 5 EUR born 2011 or later; worked out here from the fixture's CSV), so the home page's
 *   money-raised box shows the import's total and each top team card its team's, never 0,00 €
 *   for a team with paid members.
 * - 360 px: a company captain who is the only unpaid member sees one payment form (one country,
 *   one bank list, one total, one pay button) with amounts in the page's locale, and an amount
 *   typed "15,50" or "15.50" orders 15.50 EUR; once a teammate joins unpaid she may choose to pay
 *   for both, the teammate named, and the total and the order follow (also checked at 1440 px).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { PaymentMethodsAnswer, SessionClaims, StatsAnswer } from '@sinilill/contracts';
import { edition2025 } from '@sinilill/domain/seed';
import { FIXTURE_DIR } from '../support/app';
import { launchBrowser } from '../support/browser';
import { e2eKit } from '../support/e2e-kit';
import { eventually, type RunningStack } from '../support/stack';
import { E2E_STACKS, ownStack } from '../support/shared-stack';

let stack: RunningStack;
let browser: Browser;
const kit = e2eKit(() => stack, () => browser);

beforeAll(async () => {
  // A stack of its own, not a shared one: the figures asserted here are the whole site's, the
  // import's alone, which the other files' teams and payments would change.
  [stack, browser] = await Promise.all([ownStack(E2E_STACKS.pristine), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const LANGS = ['est', 'eng'] as const;
type Lang = (typeof LANGS)[number];

/** Text with every kind of space (no-break ones too) as a plain space. */
const text = (s: string | null) => (s ?? '').replace(/\s/g, ' ').trim();
/** EUR cents as the page writes them, worked out here independently of the client's formatter. */
const euros = (cents: number, lang: Lang) => {
  const whole = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  const hundredths = String(cents % 100).padStart(2, '0');
  return lang === 'est' ? `${whole},${hundredths} €` : `€${whole}.${hundredths}`;
};
/** The cents of the one amount in a text ("Kogutud 1 230,00 €", "€1 230.00 raised"). */
const centsIn = (s: string | null, lang: Lang) => {
  const decimal = lang === 'est' ? ',' : '.';
  const found = new RegExp(`(\\d[\\d ]*)\\${decimal}(\\d{2})`).exec(text(s));
  if (!found) throw new Error(`no amount in "${text(s)}"`);
  return Number(found[1]!.replace(/ /g, '')) * 100 + Number(found[2]);
};

async function api<T>(path: string, token: string | null = null): Promise<T> {
  const response = await fetch(`${stack.baseUrl}/api${path}`, { headers: token ? { authorization: token } : {} });
  expect(response.status).toBe(200);
  return await response.json() as T;
}
async function tokenOf(page: Page): Promise<string> {
  return await page.evaluate('window.localStorage.getItem("token")') as string;
}
async function claimsOf(page: Page): Promise<SessionClaims> {
  const token = (await tokenOf(page)).replace(/^Bearer /, '');
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as SessionClaims;
}

/**
 * The fees the fixture's paid participants paid by the fee rules of spec §9 (no team of the 2025
 * export is a company team), EUR cents: overall and per team id.
 */
function importedFees(): { total: number; byTeam: Map<number, number> } {
  const rows = parse(readFileSync(join(FIXTURE_DIR, 'participants.csv'), 'utf8'), { columns: true, skip_empty_lines: true, bom: true }) as
    { team_id: string; birth_year: string; is_paid: string }[];
  const { adultCents, childCents, childFromBirthYear } = edition2025.fees;
  const byTeam = new Map<number, number>();
  let total = 0;
  for (const row of rows) {
    if (row.is_paid !== 'true') continue;
    const fee = Number(row.birth_year) >= childFromBirthYear ? childCents : adultCents;
    total += fee;
    byTeam.set(Number(row.team_id), (byTeam.get(Number(row.team_id)) ?? 0) + fee);
  }
  return { total, byTeam };
}

describe('the money raised counts the imported paid marks', () => {
  for (const lang of LANGS) {
    test(`${lang}, 1440 px: the home page's money raised is the import's fees, and each top team card shows its team's`, async () => {
      const fees = importedFees();
      expect(fees.total).toBeGreaterThan(0);
      const answer = await api<StatsAnswer>('/stats');
      expect(answer.raised_cents).toBe(fees.total);
      expect(answer.raised_unknown_count ?? 0).toBe(0);

      const { context, page } = await kit.newPage(lang, 1440);
      await page.goto(`${stack.baseUrl}/`);
      await expect.poll(async () => text(await page.getByTestId('stat-raised').textContent()), { timeout: 20_000 }).toBe(euros(fees.total, lang));

      const cards = page.getByTestId('top-team');
      expect(await cards.count()).toBeGreaterThan(0);
      const idOf = new Map(answer.teams.map((t) => [t.team.team_name, t.team.id]));
      for (const card of await cards.all()) {
        const teamId = idOf.get(text(await card.locator('h3').textContent()))!;
        const expected = fees.byTeam.get(teamId) ?? 0;
        // Every top team of 2025 has paid members: 0 would be the old, wrong answer.
        expect(expected).toBeGreaterThan(0);
        expect(centsIn(await card.getByTestId('top-team-raised').textContent(), lang), `team ${teamId}`).toBe(expected);
      }
      await context.close();
    });
  }
});

describe('one payment form on /pay', () => {
  for (const lang of LANGS) {
    const captain = {
      email: `kapten-${lang}@firma.example.ee`, fullName: lang === 'est' ? 'Kärt Kapten' : 'Kate Captain',
      password: `firma kapten ${lang} maksab`, teamName: `Ühe Vormi OÜ ${lang}`,
    };
    const teammate = { email: `kaaslane-${lang}@firma.example.ee`, fullName: lang === 'est' ? 'Mikk Mänd' : 'Mike Pine', password: `firma kaaslane ${lang} 2012` };
    let captainPage: Page;

    test(`${lang}, 360 px: a company captain who is the only unpaid member sees one form, one bank list, one pay button, amounts in the page's locale`, async () => {
      const { page } = await kit.newPage(lang, 360);
      captainPage = page;
      await registerCompanyTeam(page, captain);
      const form = page.getByTestId('pay-fee-form');
      await form.waitFor();
      await form.getByTestId('pay-method').first().waitFor();

      const setup = await api<PaymentMethodsAnswer>('/payment/methods', await tokenOf(page));
      const country = await page.getByTestId('pay-country').inputValue();
      const banks = setup.countries.find((c) => c.country === country)!.methods.length;
      const oneForm = async () => {
        const pay = page.getByTestId('pay-page');
        expect(await pay.locator('form').count()).toBe(1);
        expect(await pay.locator('select[name="country"]').count()).toBe(1);
        expect(await pay.getByTestId('pay-method').count()).toBe(banks);
        expect(await pay.locator('button[type="submit"]').count()).toBe(1);
        // Nothing to choose while she is the only one unpaid.
        expect(await pay.locator('input[name="pay-for"]').count()).toBe(0);
      };
      await oneForm();
      await page.setViewportSize({ width: 1440, height: 900 });
      await oneForm();
      await page.setViewportSize({ width: 360, height: 900 });

      // Amounts in the page's locale, in the field as in the texts.
      const amount = page.getByTestId('pay-amount');
      expect(await amount.getAttribute('type')).toBe('text');
      expect(await amount.getAttribute('inputmode')).toBe('decimal');
      expect(await amount.inputValue()).toBe(lang === 'est' ? '15,00' : '15.00');
      expect(text(await page.getByTestId('pay-total').textContent())).toBe(euros(1500, lang));
      if (lang === 'est') expect(await page.getByTestId('pay-page').innerText()).not.toContain('15.00');

      // "15,50" and "15.50" are the same amount.
      for (const typed of ['15,50', '15.50']) {
        await amount.fill(typed);
        expect(text(await page.getByTestId('pay-total').textContent())).toBe(euros(1550, lang));
      }
      await amount.fill('15,50');
      await form.getByTestId('pay-method').first().click();
      await page.getByTestId('pay-submit').click();
      await page.getByTestId('sandbox-succeed').waitFor();
      const orders = await ordersOf((await claimsOf(page)).participantId!, (rows) => rows.length > 0);
      expect(orders).toEqual([{ amount_cents: 1550, covers: null }]);
    });

    test(`${lang}, 360 px: with an unpaid teammate she may pay for both, named, and the total and the order follow`, async () => {
      const page = captainPage;
      await page.goto(`${stack.baseUrl}/pay`);
      const captainClaims = await claimsOf(page);
      const { code } = await api<{ code: string }>(`/team/${captainClaims.teamId}/joincode`, await tokenOf(page));
      const { context, page: joining } = await kit.newPage(lang, 360);
      await kit.register(joining, { ...teammate, birthYear: '2012', type: 'JOIN_TEAM', joinCode: code });
      await joining.waitForURL(/\/success$/);
      await kit.confirmFromMail(joining, teammate.email);
      await context.close();

      const check = async (width: number) => {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${stack.baseUrl}/pay`);
        const form = page.getByTestId('pay-fee-form');
        const forTeam = form.locator('input[name="pay-for"][value="team"]');
        await forTeam.waitFor();
        expect(await page.getByTestId('pay-page').locator('form').count()).toBe(1);
        const choice = form.locator('label').filter({ has: page.locator('input[name="pay-for"][value="team"]') });
        await expect.poll(async () => text(await choice.textContent())).toContain(teammate.fullName);
        expect(text(await choice.textContent())).toContain(euros(3000, lang));
        expect(await form.locator('input[name="pay-for"][value="self"]').isChecked()).toBe(true);
        expect(text(await page.getByTestId('pay-total').textContent())).toBe(euros(1500, lang));
        await forTeam.check();
        expect(text(await page.getByTestId('pay-total').textContent())).toBe(euros(3000, lang));
        expect(await page.getByTestId('pay-amount').inputValue()).toBe(lang === 'est' ? '30,00' : '30.00');
        if (lang === 'est') expect(await page.getByTestId('pay-page').innerText()).not.toMatch(/\d\.\d\d/);
      };
      await check(1440);
      await check(360);
      const form = page.getByTestId('pay-fee-form');
      await form.getByTestId('pay-method').first().click();
      await page.getByTestId('pay-submit').click();
      await page.getByTestId('sandbox-succeed').waitFor();
      // The order covers both: her and the teammate.
      const orders = await ordersOf(captainClaims.participantId!, (rows) => rows.length === 2);
      expect(orders.find((o) => o.amount_cents === 3000)?.covers).toHaveLength(2);
    });
  }
});

/** Walks the wizard with the company checkbox, confirms from the inbox, logs in and waits for /pay. */
async function registerCompanyTeam(page: Page, who: { email: string; fullName: string; password: string; teamName: string }): Promise<void> {
  await kit.register(page, { ...who, type: 'REGISTER_TEAM', birthYear: '1982', company: true });
  await page.waitForURL(/\/success$/);
  await kit.confirmFromMail(page, who.email);
  await kit.login(page, who.email, who.password);
  await page.waitForURL(/\/pay$/);
}

type OrderRow = { amount_cents: number; covers: number[] | null };

/** The fee orders `participantId` placed, as the read model holds them, once `ready` says they are all there. */
async function ordersOf(participantId: number, ready: (rows: OrderRow[]) => boolean): Promise<OrderRow[]> {
  let rows: OrderRow[] = [];
  await eventually(async () => {
    rows = await kit.withDatabase(async (client) => (await client.query<OrderRow>(
      `SELECT amount_cents, covers FROM rm.payment_orders WHERE participant_id = $1 AND kind = 'fee'`, [participantId],
    )).rows);
    return ready(rows);
  });
  return rows;
}
