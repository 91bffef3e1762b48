/**
 * The 2025 export imported in bulk with the account tables wired in (as `npm start` and
 * `npm run import` run it): every imported person gets an approved account
 * without a password, every team's name and join code are indexed, a second import appends nothing and trips over none of its own reservations, and
 * an imported person sets a password through forgot-password and logs in.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import pg from 'pg';
import { importEdition, migrateToLatest } from '@sinilill/cli';
import { AccountDirectory, AccountService } from '@sinilill/commands';
import type { Mailer, OutgoingMail } from '@sinilill/mail';
import { FIGURES_2025, FIXTURE_DIR, testApplication, type TestApplication } from '../support/app';

describe('the 2025 import with accounts', () => {
  let app: TestApplication;
  let accountPool: pg.Pool;
  let directory: AccountDirectory;
  let head = 0;
  const now = () => new Date('2025-04-15T09:00:00Z');

  beforeAll(async () => {
    app = await testApplication({ now });
    // testApplication migrated every schema, the account tables included; again changes nothing.
    expect((await migrateToLatest(app.pool)).flatMap((r) => r.applied)).toEqual([]);
    accountPool = new pg.Pool({ connectionString: app.url, max: 8 });
    directory = new AccountDirectory({ pool: accountPool, indexSecret: 'import-test-index-secret-0123' });
    await importEdition({ dir: FIXTURE_DIR, edition: 2025, store: app.store, pool: accountPool, directory, ids: app.ids });
    head = await app.store.headPosition();
  }, 300_000);

  afterAll(async () => {
    await accountPool?.end();
    await app?.close();
  });

  test('every person has an approved account without a password; every team name and code is indexed', async () => {
    const count = async (sql: string) => Number((await accountPool.query<{ n: string }>(sql)).rows[0]!.n);
    expect(await count('SELECT count(*) AS n FROM app.email_index')).toBe(FIGURES_2025.participants);
    expect(await count('SELECT count(*) AS n FROM app.team_name_index')).toBe(FIGURES_2025.teams);
    expect(await count('SELECT count(*) AS n FROM app.join_codes')).toBe(FIGURES_2025.teams);
    expect(await count('SELECT count(*) AS n FROM app.credentials')).toBe(0);
    const accounts = await app.store.readAll({ after: 0, maxCount: 100_000, types: ['UserRegistered'] });
    expect(accounts).toHaveLength(FIGURES_2025.participants);
    for (const account of accounts) {
      expect(account.data).toMatchObject({ approved: true, hasPassword: false, role: 'USER' });
      expect(account.metadata).toMatchObject({ imported: true, actor: { userId: null, role: 'SYSTEM' } });
    }
    await app.project();
    expect(await app.totals()).toEqual(FIGURES_2025);
  });

  test('a second import appends nothing and fails on none of its own reservations', async () => {
    await importEdition({ dir: FIXTURE_DIR, edition: 2025, store: app.store, pool: accountPool, directory, ids: app.ids });
    expect(await app.store.headPosition()).toBe(head);
  }, 300_000);

  test('an imported person sets a password through forgot-password and logs in', async () => {
    const sent: OutgoingMail[] = [];
    const mailer: Mailer = { send: async (mail) => { sent.push(mail); }, close: () => undefined };
    const accounts = new AccountService({ store: app.store, ids: app.ids, directory, mailer, now, publicUrl: 'http://sinilill.test' });
    await expect(accounts.login({ email: 'participant1@example.ee', password: 'whatever1' })).rejects.toThrow('INVALID_CREDENTIALS');
    const visitor = { userId: null, role: 'USER' as const, participantId: null, teamId: null };
    const meta = (id: string) => ({ actor: visitor, metadata: { commandId: id, correlationId: id, causationId: null } });
    await accounts.requestPasswordReset({ email: 'participant1@example.ee', lang: 'eng' }, meta('reset-request-1'));
    const [, token, userId] = /\/passwordreset\/([A-Za-z0-9_-]+)\/([0-9a-f-]+)/.exec(sent[0]!.text)!;
    await accounts.resetPassword({ userId: userId!, token: token!, newPassword: 'first-password' }, meta('reset-1'));
    expect(await accounts.login({ email: 'participant1@example.ee', password: 'first-password' })).toEqual({
      userId, fullName: 'Kaja Kuusk', is_approved: true, participantId: 1, teamId: 1, role: 'USER', isPaid: true,
    });
  });
});
