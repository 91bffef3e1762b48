/**
 * `npm run admin -- add|remove EMAIL` and `list` (services/cli admin-command.ts): the operator
 * makes a registered person an administrator without ADMIN_EMAIL and a restart; their next login
 * carries the ADMIN role that /admin and the admin API require, and their password stays theirs.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import pg from 'pg';
import { AccountDirectory, AccountService } from '@sinilill/commands';
import { adminTool } from '@sinilill/cli';
import type { ActingUser } from '@sinilill/domain';
import type { Mailer } from '@sinilill/mail';
import { testApplication, type TestApplication } from '../support/app';
import { runningClock } from '../support/running-clock';

const ADMIN: ActingUser = { userId: 'b7d1f6c4-3f51-4a4c-9d51-2f0f5c6c0a01', role: 'ADMIN', participantId: null, teamId: null };
const PASSWORD = 'Haldur saab võtmed 2026!';

let app: TestApplication;
let accountPool: pg.Pool;
let accounts: AccountService;
const mailer: Mailer = { send: async () => undefined, close: () => undefined };
/** In the 2025 edition's days (registration is judged by them), at the real clock's pace. */
const clock = runningClock();

beforeAll(async () => {
  app = await testApplication({ now: clock });
  accountPool = new pg.Pool({ connectionString: app.url, max: 4 });
  const directory = new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' });
  accounts = new AccountService({ store: app.store, ids: app.ids, directory, mailer, now: clock, publicUrl: 'http://sinilill.test' });
}, 120_000);

afterAll(async () => {
  await accountPool?.end();
  await app?.close();
});

describe('npm run admin', () => {
  test('add makes a participant an administrator (their password stays); list shows them; remove undoes it', async () => {
    const email = `tulevane-haldur-${randomUUID().slice(0, 8)}@example.ee`;
    const id = randomUUID();
    const registered = await accounts.registerTeam({
      fullName: 'Tiina Tulevane', email, gender: 'FEMALE', birthYear: 1979, password: PASSWORD, newsletter: false, lang: 'est',
      teamName: `Haldurid ${id.slice(0, 8)}`,
    }, { actor: { ...ADMIN, role: 'USER', userId: null }, metadata: { commandId: id, correlationId: id, causationId: null } });
    await accounts.setApproval(registered.userId, true, { actor: ADMIN, metadata: { commandId: `approve-${id}`, correlationId: id, causationId: null } });
    expect((await accounts.login({ email, password: PASSWORD })).role).toBe('USER');

    const lines: string[] = [];
    const tool = (args: string[]) => adminTool(args, { accounts, db: app.db, log: (line) => lines.push(line) });
    expect(await tool(['add', email.toUpperCase()])).toEqual(expect.any(Number));
    expect(await accounts.login({ email, password: PASSWORD })).toMatchObject({ role: 'ADMIN', is_approved: true, participantId: registered.participantId });
    expect(await tool(['add', email])).toBeNull();
    expect(lines.at(-1)).toContain('already an administrator');

    await app.project();
    await tool(['list']);
    expect(lines).toContain(email);

    await tool(['remove', email]);
    expect((await accounts.login({ email, password: PASSWORD })).role).toBe('USER');

    await expect(tool(['add', 'nobody-here@example.ee'])).rejects.toThrow('NOT_FOUND');
    await expect(tool(['promote', email])).rejects.toThrow('usage: npm run admin');
  });
});
