/**
 * Fees as spec §9 writes them, in headless Chromium against `npm start` with the
 * sandbox bank and the bank transfer's details configured (BANK_ACCOUNT_NAME, BANK_ACCOUNT_IBAN,
 * BANK_TRANSFER_DESCRIPTION):
 *
 * - a captain registers a company team with the wizard's checkbox and lands on /pay, which shows
 *   the configured bank transfer in Estonian, the description naming her participant id;
 * - a member born 2012 joins and, in English, sees the company fee (15 EUR, not the child's 5) and
 *   the same bank transfer in English with his own id;
 * - the captain chooses, in the one fee form, to pay for herself and her unpaid teammate (named,
 *   with the sum) and pays it once through the sandbox; everyone is paid;
 * - the administrator finds the team fee among the captain's payments in the console and records
 *   its refund in full, after the site's confirmation: both members are unpaid again.
 * The server's rules (amounts, refunds, permissions) are tested in tests/int/payments.int.test.ts.
 */
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { AdminUsersAnswer, PaymentInfoAnswer, SessionClaims } from '@sinilill/contracts';
import { edition2025 } from '@sinilill/domain/seed';
import { launchBrowser } from '../support/browser';
import { e2eKit } from '../support/e2e-kit';
import type { RunningStack } from '../support/stack';
import { E2E_ADMIN, sharedStack, E2E_STACKS } from '../support/shared-stack';

const ADMIN = E2E_ADMIN;

let stack: RunningStack;
let browser: Browser;
const kit = e2eKit(() => stack, () => browser);

beforeAll(async () => {
  [stack, browser] = await Promise.all([sharedStack(E2E_STACKS.bankTransfer), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const text = (s: string | null) => (s ?? '').replace(/\s/g, ' ').trim();
/** "45,00" in a formatted Estonian or English amount ("45,00 €", "€45.00"), in cents. */
const amountIn = (s: string | null) => {
  const found = /(\d+)[.,](\d{2})/.exec(text(s))!;
  return Number(found[1]) * 100 + Number(found[2]);
};

async function tokenOf(page: Page): Promise<string> {
  return await page.evaluate('window.localStorage.getItem("token")') as string;
}
async function claimsOf(page: Page): Promise<SessionClaims> {
  const token = (await tokenOf(page)).replace(/^Bearer /, '');
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as SessionClaims;
}
async function api<T>(path: string, token: string): Promise<T> {
  const response = await fetch(`${stack.baseUrl}/api${path}`, { headers: { authorization: token } });
  expect(response.status).toBe(200);
  return await response.json() as T;
}

/** axe-core's serious and critical violations within `selector` (WCAG 2.1 A and AA rules). */
async function seriousViolations(page: Page, selector: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include(selector).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** Confirms from the inbox, logs in and waits for the pay route (spec §2: unpaid users go there). */
async function confirmAndLogIn(page: Page, email: string, password: string): Promise<void> {
  await page.waitForURL(/\/success$/);
  await kit.confirmFromMail(page, email);
  await kit.login(page, email, password);
  await page.waitForURL(/\/pay$/);
}

/** The bank transfer section's details as shown. */
async function bankDetails(page: Page) {
  await page.getByTestId('bank-account').waitFor();
  return {
    heading: text(await page.locator('#bank-transfer-heading').textContent()),
    recipient: text(await page.getByTestId('bank-recipient').textContent()),
    account: text(await page.getByTestId('bank-account').textContent()),
    description: text(await page.getByTestId('bank-description').textContent()),
    amount: amountIn(await page.getByTestId('bank-amount').textContent()),
    example: await page.getByTestId('bank-example').count(),
  };
}

const captain = { email: 'juht@firma.example.ee', fullName: 'Kadri Kapten', password: 'firma kapten maksab 45', teamName: 'Firma Tiim OÜ' };
let captainPage: Page;
let teamId: number;
let memberToken: string;

describe('a company team on /pay', () => {
  test('the captain registers a company team and sees the configured bank transfer in Estonian, with her participant id', async () => {
    const { page } = await kit.newPage('est', 1280);
    captainPage = page;
    // The wizard, with the company checkbox on its last step (REGISTER_TEAM only).
    await page.goto(`${stack.baseUrl}/register`);
    await page.getByTestId('step-user-information').waitFor();
    await page.fill('[name="email"]', captain.email);
    await page.fill('[name="full_name"]', captain.fullName);
    await page.fill('[name="password"]', captain.password);
    await page.fill('[name="password_confirmation"]', captain.password);
    await page.selectOption('[name="birth_year"]', '1982');
    await page.selectOption('[name="gender"]', 'FEMALE');
    await page.getByTestId('wizard-next').click();
    await page.check('[name="type"][value="REGISTER_TEAM"]');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('step-team-infromation').waitFor();
    await page.fill('[name="team_name"]', captain.teamName);
    expect(text(await page.getByTestId('registration-company').textContent())).toContain('15,00 €');
    await page.check('[name="company"]');
    await page.getByTestId('wizard-submit').click();
    await confirmAndLogIn(page, captain.email, captain.password);

    const claims = await claimsOf(page);
    teamId = claims.teamId!;
    const info = await api<PaymentInfoAnswer>('/payment/info', await tokenOf(page));
    expect(info).toMatchObject({ isPaid: false, fee: 15, company: true, unpaidMembers: 1, teamFee: 15 });
    expect(await bankDetails(page)).toEqual({
      heading: 'Pangaülekandega maksmine', recipient: 'MTÜ Sinilill E2E', account: 'EE38 2200 2210 2014 5685',
      description: `Sinilill ${edition2025.year} osalustasu ${claims.participantId}`, amount: 1500, example: 0,
    });
    expect(text(await page.getByTestId('bank-transfer').textContent())).not.toContain('kirjuta meile');
  });

  test('a member born 2012 joins and, in English, sees the company fee of 15 EUR and the bank transfer with his own id', async () => {
    const { code } = await api<{ code: string }>(`/team/${teamId}/joincode`, await tokenOf(captainPage));
    const { page } = await kit.newPage('eng', 390);
    const member = { email: 'noor@firma.example.ee', fullName: 'Mikk Noor', password: 'firma noor liige 2012' };
    await kit.register(page, { ...member, birthYear: '2012', type: 'JOIN_TEAM', joinCode: code });
    await confirmAndLogIn(page, member.email, member.password);
    const claims = await claimsOf(page);
    memberToken = await tokenOf(page);
    expect(await api<PaymentInfoAnswer>('/payment/info', await tokenOf(page))).toEqual({
      isPaid: false, isChild: true, fee: 15, feeCents: 1500, company: true,
    });
    expect(text(await page.getByTestId('pay-fee').textContent())).toContain('company team');
    expect(await page.getByTestId('pay-amount').inputValue()).toBe('15.00');
    // Only the captain is offered the team's fee.
    expect(await page.getByTestId('pay-team-fee').count()).toBe(0);
    expect(await bankDetails(page)).toEqual({
      heading: 'Paying by bank transfer', recipient: 'MTÜ Sinilill E2E', account: 'EE38 2200 2210 2014 5685',
      description: `Sinilill ${edition2025.year} osalustasu ${claims.participantId}`, amount: 1500, example: 0,
    });
  });

  test('the captain chooses to pay for herself and her unpaid teammate, in the one fee form, and pays once; both are paid', async () => {
    const page = captainPage;
    await page.goto(`${stack.baseUrl}/pay`);
    const form = page.getByTestId('pay-fee-form');
    await form.waitFor();
    // One form: the team's fee is a choice in it, not a second form.
    expect(await page.getByTestId('pay-team-fee').count()).toBe(0);
    const forTeam = form.locator('input[name="pay-for"][value="team"]');
    const teamChoice = form.locator('label').filter({ has: page.locator('input[name="pay-for"][value="team"]') });
    expect(text(await teamChoice.textContent())).toContain('Enda ja 1 maksmata tiimikaaslase osalustasu: 30,00 €');
    // The names follow with the team's members, a read of their own after the offer.
    await expect.poll(async () => text(await teamChoice.textContent())).toContain('Mikk Noor');
    expect(text(await page.getByTestId('pay-total').textContent())).toBe('15,00 €');
    await forTeam.check();
    expect(text(await page.getByTestId('pay-total').textContent())).toBe('30,00 €');
    expect(await page.getByTestId('pay-amount').inputValue()).toBe('30,00');
    await page.getByTestId('bank-account').waitFor();
    for (const part of ['[data-testid="pay-fee-form"]', '[data-testid="bank-transfer"]']) expect(await seriousViolations(page, part), part).toEqual([]);

    await form.getByTestId('pay-method').first().click();
    await page.getByTestId('pay-submit').click();
    await page.getByTestId('sandbox-succeed').waitFor();
    await page.getByTestId('sandbox-succeed').click();
    await page.waitForURL(/\/payment\/success/);
    expect(amountIn(await page.getByTestId('payment-amount').textContent())).toBe(3000);
    await expect.poll(async () => (await claimsOf(page)).isPaid).toBe(true);
    await expect.poll(() => page.getByTestId('not-paid-banner').count()).toBe(0);

    const info = await api<PaymentInfoAnswer>('/payment/info', await tokenOf(page));
    expect(info).toMatchObject({ isPaid: true, company: true, unpaidMembers: 0, teamFee: 0 });
    const members = await api<{ id: number; is_paid: boolean }[]>(`/team/${teamId}/participants`, await tokenOf(page));
    expect(members.map((m) => m.is_paid)).toEqual([true, true]);
    // Paid: the team form is gone and the donation form is offered.
    await page.goto(`${stack.baseUrl}/pay`);
    await page.getByTestId('pay-donation-form').waitFor();
    expect(await page.getByTestId('pay-team-fee').count()).toBe(0);
  });

  test('the administrator refunds the team fee from the console, after confirming: both members are unpaid again', async () => {
    const { page } = await kit.newPage('est', 1440);
    await kit.login(page, ADMIN.email, ADMIN.password);
    await page.waitForURL(/\/admin$/);
    await page.getByTestId('admin-panel-users').waitFor();
    const adminToken = await tokenOf(page);
    const account = (await api<AdminUsersAnswer>('/admin/userdata', adminToken)).users.find((u) => u.email === captain.email)!;
    await page.locator('[role="tabpanel"] [data-testid="admin-search"]').fill(captain.email);
    const row = page.locator(`[data-testid="admin-users-table"] [data-testid="admin-row"][data-id="${account.id}"]`);
    await row.getByTestId('admin-payments').click();

    const dialog = page.getByTestId('admin-payments-dialog');
    const order = dialog.getByTestId('admin-payment-row');
    await order.first().waitFor();
    expect(text(await order.first().textContent())).toContain('Tiimi osalustasu (2 liiget)');
    expect(text(await order.first().textContent())).toContain('30,00 €');
    expect(await seriousViolations(page, '[data-testid="admin-payments-dialog"]')).toEqual([]);
    await order.first().getByTestId('admin-refund-open').click();
    // A reason is required; the amount may stay empty (all that is left).
    await page.getByTestId('admin-refund-submit').click();
    expect(await page.getByTestId('admin-refund-confirm').isVisible()).toBe(false);
    await page.getByTestId('admin-refund-reason').fill('Ettevõte maksis arvega');
    await page.getByTestId('admin-refund-submit').click();
    const confirm = page.getByTestId('admin-refund-confirm');
    await confirm.waitFor();
    expect(text(await confirm.textContent())).toContain('30,00 €');
    expect(text(await confirm.textContent())).toContain('maksmata');
    expect(await seriousViolations(page, '[data-testid="admin-refund-confirm"]')).toEqual([]);
    await page.getByTestId('admin-refund-confirm-yes').click();
    await page.getByTestId('alert-success').waitFor();
    await expect.poll(async () => text(await dialog.getByTestId('admin-payment-refunded').first().textContent())).toBe('30,00 €');
    expect(await dialog.getByTestId('admin-refund-open').count()).toBe(0);

    await expect.poll(async () => (await api<PaymentInfoAnswer>('/payment/info', memberToken)).isPaid).toBe(false);
    expect(await api<PaymentInfoAnswer>('/payment/info', await tokenOf(captainPage))).toMatchObject({ isPaid: false, unpaidMembers: 2, teamFee: 30 });
  });
});
