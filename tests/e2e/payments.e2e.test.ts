/**
 * Paying the participation fee and donating, as new users do it, in headless Chromium
 * against `npm start` with its default payment provider, the sandbox (a local test bank that
 * notifies the app with a signed webhook and then returns the payer, as a real provider does).
 *
 * - A new participant (born 1985) lands on /pay with the not-paid banner; the form refuses a
 *   missing bank (NOT_SELECTED) and an amount under the fee (AMOUNT_TOO_LOW); a failed payment
 *   leaves her unpaid; a successful one removes the banner and her session says isPaid.
 * - Paid, she donates; the fundraising totals grow by exactly the fee and the donation.
 * - A teammate born in 2012, in English on a phone, pays 5 EUR.
 * - Without BANK_* configuration the bank transfer shows the made-up details, flagged
 *   (configured ones in both languages: company-fee.e2e.test.ts).
 * The server's answers for every payment code, duplicate and forged webhooks are tested in
 * tests/int/payments.int.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { FundraisingAnswer, JoinCodeAnswer, PaymentInfoAnswer, SessionClaims } from '@sinilill/contracts';
import { launchBrowser } from '../support/browser';
import { e2eKit, message } from '../support/e2e-kit';
import type { RunningStack } from '../support/stack';
import { sharedStack, E2E_STACKS } from '../support/shared-stack';

let stack: RunningStack;
let browser: Browser;
const kit = e2eKit(() => stack, () => browser);

beforeAll(async () => {
  [stack, browser] = await Promise.all([sharedStack(E2E_STACKS.april30), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const text = (s: string | null) => (s ?? '').replace(/\s/g, ' ').trim();

async function api<T>(path: string, token: string | null): Promise<T> {
  const response = await fetch(`${stack.baseUrl}/api${path}`, { headers: token ? { authorization: token } : {} });
  expect(response.status).toBe(200);
  return await response.json() as T;
}

async function tokenOf(page: Page): Promise<string> {
  return await page.evaluate('window.localStorage.getItem("token")') as string;
}

/** The stored session token's claims, decoded as the client decodes them (spec §3). */
async function claimsOf(page: Page): Promise<SessionClaims> {
  const token = (await tokenOf(page)).replace(/^Bearer /, '');
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as SessionClaims;
}

/** Registers, confirms from the inbox and logs in; waits for the pay route. */
async function newParticipant(page: Page, r: Parameters<ReturnType<typeof e2eKit>['register']>[1]): Promise<void> {
  await kit.register(page, r);
  await page.waitForURL(/\/success$/);
  await kit.confirmFromMail(page, r.email);
  await kit.login(page, r.email, r.password);
  await page.waitForURL(/\/pay$/); // spec §2: unpaid users go to the pay route
}

/** Chooses a bank on /pay, submits, and waits for the sandbox's checkout page. */
async function payThroughSandbox(page: Page, outcome: 'succeed' | 'fail', amount: string): Promise<void> {
  await page.getByTestId('pay-method').first().click();
  expect(await page.getByTestId('pay-method').first().getAttribute('aria-pressed')).toBe('true');
  await page.getByTestId('pay-amount').fill(amount);
  await page.getByTestId('pay-submit').click();
  await page.getByTestId(`sandbox-${outcome}`).waitFor();
  await page.getByTestId(`sandbox-${outcome}`).click();
}

const cents = (euros: string) => Math.round(Number(euros.replace(',', '.')) * 100);
/** An answer's EUR (15, 7.5) in cents. */
const eurosInCents = (euros: number) => Math.round(euros * 100);
/**
 * The amount in a formatted Estonian or English amount ("15,00 €", "€15.00", "13 975,00 €": the
 * total counts the import's fees since they are assumed paid, so it has thousands).
 */
const amountIn = (s: string | null) => cents(/(\d[\d ]*[.,]\d{2})/.exec(text(s))![1]!.replace(/ /g, ''));

const captain = { email: 'maksja@example.ee', fullName: 'Mari Maksja', password: 'maksja-parool-1', teamName: 'Maksjate Tiim' };
let captainPage: Page;
let teamId: number;

describe('the participation fee and donations through the sandbox', () => {
  test('an unpaid participant sees the banner, is refused without a bank and under the fee, fails once, then pays', async () => {
    const { page } = await kit.newPage('est', 1440);
    captainPage = page;
    await newParticipant(page, { ...captain, birthYear: '1985', type: 'REGISTER_TEAM' });
    teamId = (await claimsOf(page)).teamId!;
    await page.getByTestId('not-paid-banner').waitFor();
    await page.getByTestId('pay-fee-form').waitFor();
    const info = await api<PaymentInfoAnswer>('/payment/info', await tokenOf(page));
    expect(info).toEqual({ isPaid: false, isChild: false, fee: 15, feeCents: 1500, company: false });
    // No bank details configured: the made-up development ones, flagged as an example.
    await page.getByTestId('bank-example').waitFor();
    expect(text(await page.getByTestId('bank-account').textContent())).toBe('EE00 0000 0000 0000 0000');
    expect(text(await page.getByTestId('bank-description').textContent())).toBe(`Sinilill 2025 ID ${(await claimsOf(page)).participantId}`);

    // Countries in reverse order of the provider's setup, Estonia chosen.
    const setup = await api<{ countries: { country: string }[] }>('/payment/methods', await tokenOf(page));
    const options = await page.locator('[data-testid="pay-country"] option').evaluateAll((nodes) => nodes.map((n) => (n as HTMLOptionElement).value));
    expect(options).toEqual(setup.countries.map((c) => c.country).reverse());
    expect(await page.getByTestId('pay-country').inputValue()).toBe('EE');
    // The amount as Estonian writes it (a decimal comma); "15.00" is accepted as typed too.
    expect(await page.getByTestId('pay-amount').inputValue()).toBe('15,00');
    expect(amountIn(await page.getByTestId('pay-total').textContent())).toBe(1500);
    expect(await page.locator('[data-testid="pay-method"] img').count()).toBeGreaterThan(0);

    // No bank chosen: NOT_SELECTED.
    await page.getByTestId('pay-submit').click();
    expect(text(await page.getByTestId('alert-error').textContent())).toBe(message('est', 'NOT_SELECTED'));
    // Under the fee: AMOUNT_TOO_LOW.
    await page.getByTestId('pay-method').first().click();
    await page.getByTestId('pay-amount').fill('10.00');
    await page.getByTestId('pay-submit').click();
    expect(text(await page.getByTestId('alert-error').textContent())).toBe(message('est', 'AMOUNT_TOO_LOW'));

    // The bank refuses: back on the failure page, still unpaid.
    await payThroughSandbox(page, 'fail', '15.00');
    await page.waitForURL(/\/payment\/failed/);
    await page.getByTestId('payment-failed').waitFor();
    expect(text(await page.getByTestId('payment-code').textContent())).not.toBe('');
    // The order as the server knows it (GET /api/payment/order/{reference}).
    await expect.poll(() => page.getByTestId('payment-order-state').getAttribute('data-state')).toBe('failed');
    expect(amountIn(await page.getByTestId('payment-order-amount').textContent())).toBe(1500);
    await page.getByTestId('not-paid-banner').waitFor();
    expect((await api<PaymentInfoAnswer>('/payment/info', await tokenOf(page))).isPaid).toBe(false);

    // Paid.
    const raisedBefore = await api<FundraisingAnswer>('/fundraising', null);
    await page.goto(`${stack.baseUrl}/pay`);
    await page.getByTestId('pay-fee-form').waitFor();
    await payThroughSandbox(page, 'succeed', '15.00');
    await page.waitForURL(/\/payment\/success/);
    await page.getByTestId('payment-success').waitFor();
    expect(amountIn(await page.getByTestId('payment-amount').textContent())).toBe(1500);
    await expect.poll(() => page.getByTestId('payment-order-state').getAttribute('data-state')).toBe('paid');
    expect(amountIn(await page.getByTestId('payment-order-amount').textContent())).toBe(1500);
    await expect.poll(() => page.getByTestId('not-paid-banner').count()).toBe(0);
    await expect.poll(async () => (await claimsOf(page)).isPaid).toBe(true);
    await page.getByTestId('donate-link').waitFor();
    expect((await api<PaymentInfoAnswer>('/payment/info', await tokenOf(page))).isPaid).toBe(true);
    const raised = await api<FundraisingAnswer>('/fundraising', null);
    expect(eurosInCents(raised.fees) - eurosInCents(raisedBefore.fees)).toBe(1500);

    // After a reload and a new login, still paid: the banner stays away, login goes to /team.
    await page.reload();
    await page.getByTestId('donate-link').waitFor();
    expect(await page.getByTestId('not-paid-banner').count()).toBe(0);
    await page.evaluate(() => window.localStorage.removeItem('token'));
    await kit.login(page, captain.email, captain.password);
    await page.waitForURL(/\/team$/);
  });

  test('paid, she donates, and the fundraising totals show it', async () => {
    const page = captainPage;
    const before = await api<FundraisingAnswer>('/fundraising', null);
    await page.getByTestId('donate-link').click();
    await page.waitForURL(/\/pay$/);
    const form = page.getByTestId('pay-donation-form');
    await form.waitFor();
    expect(await page.getByTestId('pay-fee-form').count()).toBe(0);
    expect(await page.getByTestId('donation-amount').inputValue()).toBe('5,00');
    expect(amountIn(await page.getByTestId('fundraising-total').textContent())).toBe(eurosInCents(before.total));

    // Under 1 EUR is refused.
    await page.getByTestId('donation-amount').fill('0.50');
    await page.getByTestId('donation-submit').click();
    expect(text(await page.getByTestId('alert-error').textContent())).toBe(message('est', 'AMOUNT_TOO_LOW'));

    await page.getByTestId('donation-amount').fill('7.00');
    await page.getByTestId('donation-submit').click();
    // A donation leaves the bank to the provider's page when the form offers none.
    const bank = page.getByTestId('sandbox-method');
    await page.getByTestId('sandbox-succeed').waitFor();
    if (await bank.count()) await bank.selectOption({ index: 1 });
    await page.getByTestId('sandbox-succeed').click();
    await page.waitForURL(/\/payment\/success/);
    expect(amountIn(await page.getByTestId('payment-amount').textContent())).toBe(700);

    const after = await api<FundraisingAnswer>('/fundraising', null);
    expect(eurosInCents(after.donations) - eurosInCents(before.donations)).toBe(700);
    expect(after.fees).toBe(before.fees);
    expect(after.teams.find((t) => t.teamId === teamId)).toMatchObject({ fees: 15, donations: 7, total: 22 });
    await page.goto(`${stack.baseUrl}/pay`);
    // A page load, not an update: the default one-second poll is shorter than a load on a busy machine.
    await expect.poll(async () => amountIn(await page.getByTestId('fundraising-total').textContent({ timeout: 10_000 })), { timeout: 10_000 }).toBe(eurosInCents(after.total));
    expect(amountIn(await page.getByTestId('fundraising-team-total').textContent())).toBe(2200);
  });

  test('a teammate born in 2012 pays 5 EUR (in English, on a phone)', async () => {
    const { code } = await api<JoinCodeAnswer>(`/team/${teamId}/joincode`, await tokenOf(captainPage));
    const { page } = await kit.newPage('eng', 360);
    const child = { email: 'laps@example.ee', fullName: 'Mia Maksja', password: 'lapse-parool-1' };
    await newParticipant(page, { ...child, birthYear: '2012', type: 'JOIN_TEAM', joinCode: code });
    await page.getByTestId('not-paid-banner').waitFor();
    expect(await api<PaymentInfoAnswer>('/payment/info', await tokenOf(page))).toEqual({ isPaid: false, isChild: true, fee: 5, feeCents: 500, company: false });
    expect(await page.getByTestId('pay-amount').inputValue()).toBe('5.00');
    expect(amountIn(await page.getByTestId('pay-total').textContent())).toBe(500);
    const hasScroll = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(hasScroll).toBe(false);

    await payThroughSandbox(page, 'succeed', '5.00');
    await page.waitForURL(/\/payment\/success/);
    expect(amountIn(await page.getByTestId('payment-amount').textContent())).toBe(500);
    await expect.poll(() => page.getByTestId('not-paid-banner').count()).toBe(0);
    await expect.poll(async () => (await claimsOf(page)).isPaid).toBe(true);
    const raised = await api<FundraisingAnswer>('/fundraising', null);
    expect(raised.teams.find((t) => t.teamId === teamId)).toMatchObject({ fees: 20, donations: 7 });
  });
});
