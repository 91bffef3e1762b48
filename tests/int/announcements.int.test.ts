/**
 * Announcements end to end on real PostgreSQL, Redis and SMTP: an
 * administrator's announcement to the newsletter audience reaches exactly the opted-in, not
 * erased participants through the `mail` queue, each in their stored language, in MailDev's
 * inbox; someone erased after the announcement was queued gets nothing (checked at send time);
 * the mail's unsubscribe link works without login and the next announcement skips them; the
 * `all` audience reaches those who did not opt in too; a refusing SMTP server is retried and
 * counted as failed.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { AccountDirectory, AccountService, CommandService, type CommandRequest } from '@sinilill/commands';
import type { AnnouncementProgress } from '@sinilill/contracts';
import { PERSONAL_DATA_FIELDS, type ActingUser } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection, type EventStore } from '@sinilill/event-store';
import { Announcements, buildCommandApi } from '@sinilill/command-api';
import { smtpMailer } from '@sinilill/mail';
import { streamIndexOn, testApplication, type TestApplication } from '../support/app';
import { startMailDev, type RunningMailDev } from '../support/maildev';
import { NO_MAIL } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const NOW = new Date('2025-04-15T09:00:00Z');
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const PASSWORD = 'sinine lill metsa all';
const PUBLIC_URL = 'http://sinilill.test';

interface Person { userId: string; participantId: number; email: string; token: string }

describe('announcements', () => {
  let app: TestApplication;
  let accountPool: pg.Pool;
  let store: EventStore;
  let accounts: AccountService;
  let announcements: Announcements;
  let commandApi: FastifyInstance;
  let maildev: RunningMailDev;
  let adminToken: string;
  let mari: Person; let john: Person; let kati: Person;
  let serial = 0;
  const prefix = `announcements-test-${randomUUID()}`;

  const system = (): CommandRequest => {
    const id = `announcements-test:${++serial}`;
    return { actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null } };
  };
  const tokenOf = async (email: string, password: string) => {
    const response = await commandApi.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
    expect(response.statusCode, response.body).toBe(200);
    return `Bearer ${response.json<{ token: string }>().token}`;
  };
  const register = async (fullName: string, email: string, lang: 'est' | 'eng', newsletter: boolean): Promise<Person> => {
    const result = await accounts.registerTeam({
      fullName, email, gender: 'FEMALE', birthYear: 1980, password: PASSWORD, newsletter, lang, teamName: `${fullName} tiim`,
    }, system());
    await accounts.setApproval(result.userId, true, system());
    return { userId: result.userId, participantId: result.participantId, email, token: await tokenOf(email, PASSWORD) };
  };
  const publish = (audience: 'newsletter' | 'all', tag: string, token = adminToken) => commandApi.inject({
    method: 'POST', url: '/api/admin/announcements', headers: { authorization: token },
    payload: { subject_et: `Teade ${tag}`, body_et: `Tere!\n\nSinilill ${tag} algab.`, subject_en: `Notice ${tag}`, body_en: `Hello!\n\nSinilill ${tag} starts.`, audience },
  });
  const progressOf = async (id: string): Promise<AnnouncementProgress> => {
    const response = await commandApi.inject({ url: '/api/admin/queues/announcements', headers: { authorization: adminToken } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ announcements: AnnouncementProgress[] }>().announcements.find((a) => a.announcementId === id)!;
  };
  /** Waits until every queued mail of the announcement is sent, skipped or failed. */
  const finished = async (id: string, timeoutMs = 15_000): Promise<AnnouncementProgress> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const progress = await progressOf(id);
      if (progress.queued !== null && progress.sent + progress.failed + progress.skipped >= progress.queued) return progress;
      if (Date.now() > until) throw new Error(`announcement ${id} not finished: ${JSON.stringify(progress)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const eventually = async (probe: () => Promise<boolean>, timeoutMs = 10_000) => {
    const until = Date.now() + timeoutMs;
    while (!(await probe())) {
      if (Date.now() > until) throw new Error('condition not reached');
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const inboxOf = async (email: string, subjectPart: string) => maildev.count(email, subjectPart);

  beforeAll(async () => {
    maildev = await startMailDev();
    app = await testApplication({ now: () => NOW });
    accountPool = new pg.Pool({ connectionString: app.url, max: 6 });
    const directory = new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' });
    const vault = new PersonalDataVault({ pool: app.pool, cacheTtlMs: 0 });
    store = withPersonalDataProtection(new PostgresEventStore({ pool: app.pool }), vault, PERSONAL_DATA_FIELDS);
    const commands = new CommandService({ store, ids: app.ids, now: () => NOW, directory, personalData: vault, streamIndex: streamIndexOn(app.pool) });
    accounts = new AccountService({ store, ids: app.ids, directory, mailer: NO_MAIL, now: () => NOW, publicUrl: PUBLIC_URL });
    announcements = new Announcements({
      store, redisUrl: inject('redisUrl'), prefix, publicUrl: PUBLIC_URL, secret: SECRET, now: () => NOW,
      mailer: smtpMailer({ url: maildev.smtpUrl, from: 'Sinilill <info@sinilill.test>' }), backoffMs: 20, ratePerSecond: 2,
    });
    commandApi = buildCommandApi({ commands, accounts, announcements, jwtSecret: SECRET, rateLimit: { max: 1000, timeWindowMs: 60_000 } });
    await commandApi.ready();
    mari = await register('Mari Maasikas', 'mari@example.ee', 'est', true);
    john = await register('John Smith', 'john@example.com', 'eng', true);
    await register('Peeter Puu', 'peeter@example.ee', 'est', false);
    kati = await register('Kati Karu', 'kati@example.ee', 'est', true);
    await accounts.ensureAdmin('admin@example.ee', 'a long admin password', NOW);
    adminToken = await tokenOf('admin@example.ee', 'a long admin password');
  }, 120_000);

  afterAll(async () => {
    await commandApi?.close();
    await announcements?.close();
    await accountPool?.end();
    await app?.close();
    await maildev?.close();
  });

  test('only an administrator sends announcements', async () => {
    expect((await publish('newsletter', 'keelatud', mari.token)).json()).toEqual({ message: 'FORBIDDEN' });
    expect((await publish('newsletter', 'keelatud', '')).statusCode).toBe(401);
    const bad = await commandApi.inject({ method: 'POST', url: '/api/admin/announcements', headers: { authorization: adminToken }, payload: { subject_et: 'x', audience: 'everyone' } });
    expect(bad.statusCode).toBe(400);
  });

  test('before sending, only an administrator counts the recipients per language and mails a test to themself', async () => {
    const recipients = (audience: string, token = adminToken) => commandApi.inject({
      url: `/api/admin/queues/announcements/recipients?audience=${audience}`, headers: { authorization: token },
    });
    expect((await recipients('newsletter', mari.token)).json()).toEqual({ message: 'FORBIDDEN' });
    expect((await recipients('newsletter', '')).statusCode).toBe(401);
    expect((await recipients('everyone')).statusCode).toBe(400);
    // Mari (est), John (eng) and Kati (est) asked for the newsletter; Peeter (est) did not.
    expect((await recipients('newsletter')).json()).toEqual({ audience: 'newsletter', total: 3, est: 2, eng: 1 });
    expect((await recipients('all')).json()).toEqual({ audience: 'all', total: 4, est: 3, eng: 1 });

    const test = (token: string) => commandApi.inject({
      method: 'POST', url: '/api/admin/announcements/test', headers: { authorization: token },
      payload: { subject_et: 'Proovin teadet', body_et: 'Tere!', subject_en: 'Trying a notice', body_en: 'Hello!', audience: 'all' },
    });
    expect((await test(mari.token)).json()).toEqual({ message: 'FORBIDDEN' });
    expect((await test('')).statusCode).toBe(401);
    const sent = await test(adminToken);
    expect(sent.json(), sent.body).toEqual({ sent: 2 });
    await eventually(async () => (await inboxOf('admin@example.ee', '[PROOV] Proovin teadet')) === 1 && (await inboxOf('admin@example.ee', '[TEST] Trying a notice')) === 1);
    for (const person of [mari, john, kati]) expect(await inboxOf(person.email, 'Proovin teadet') + await inboxOf(person.email, 'Trying a notice')).toBe(0);
    // Nothing was recorded or queued: the progress list has no such announcement.
    const list = await commandApi.inject({ url: '/api/admin/queues/announcements', headers: { authorization: adminToken } });
    expect(list.json<{ announcements: AnnouncementProgress[] }>().announcements.some((a) => a.subject_en.includes('Trying a notice'))).toBe(false);
  });

  test('the newsletter audience gets it in their language; the erased and those who did not opt in get nothing', async () => {
    const response = await publish('newsletter', 'A');
    expect(response.statusCode, response.body).toBe(200);
    const { announcementId } = response.json<{ announcementId: string }>();
    announcements.startWorker();
    // Kati erases herself after her mail was queued (the limiter, 2 a second, sends hers last,
    // a second or more later): the check at send time must skip her.
    await eventually(async () => (await progressOf(announcementId)).queued !== null);
    const erased = await commandApi.inject({ method: 'POST', url: '/api/me/erase', payload: { password: PASSWORD }, headers: { authorization: kati.token } });
    expect(erased.statusCode, erased.body).toBe(200);
    const progress = await finished(announcementId);
    expect(progress).toMatchObject({ queued: 3, sent: 2, failed: 0, skipped: 1 });

    const et = await maildev.waitForMail('mari@example.ee', 'Teade A');
    expect(et.text).toContain('Sinilill A algab.');
    expect(et.text).toContain(`${PUBLIC_URL}/unsubscribe/${mari.participantId}.`);
    const en = await maildev.waitForMail('john@example.com', 'Notice A');
    expect(en.text).toContain('Sinilill A starts.');
    expect(en.text).toContain('Unsubscribe from the newsletter');
    expect(await inboxOf('peeter@example.ee', 'A')).toBe(0);
    expect(await inboxOf('kati@example.ee', 'A')).toBe(0);
    const headers = (et as unknown as { headers: Record<string, string> }).headers;
    expect(headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(headers['list-unsubscribe']).toMatch(new RegExp(`^<${PUBLIC_URL}/api/unsubscribe/${mari.participantId}\\.`));
  });

  test('the unsubscribe link works without login; the next announcement skips them; the `all` audience reaches everyone not erased', async () => {
    const mail = await maildev.waitForMail('mari@example.ee', 'Teade A');
    const token = /\/unsubscribe\/([^\s?]+)/.exec(mail.text)![1]!;
    const forged = await commandApi.inject({ method: 'POST', url: '/api/unsubscribe', payload: { token: token.replace(/^\d+\./, `${john.participantId}.`) } });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ message: 'INVALID_UNSUBSCRIBE_LINK' });
    expect((await commandApi.inject({ method: 'POST', url: '/api/unsubscribe', payload: { token } })).json()).toEqual({ unsubscribed: true });
    // Again (a second click): still fine.
    expect((await commandApi.inject({ method: 'POST', url: '/api/unsubscribe', payload: { token } })).statusCode).toBe(200);
    // John uses his mail client's one-click button (RFC 8058).
    const johnMail = await maildev.waitForMail('john@example.com', 'Notice A');
    const oneClick = /<([^>]+)>/.exec((johnMail as unknown as { headers: Record<string, string> }).headers['list-unsubscribe']!)![1]!;
    const clicked = await commandApi.inject({ method: 'POST', url: oneClick.slice(PUBLIC_URL.length), headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(clicked.statusCode, clicked.body).toBe(200);

    const b = (await publish('newsletter', 'B')).json<{ announcementId: string }>().announcementId;
    expect(await finished(b)).toMatchObject({ queued: 0, sent: 0 });
    const c = (await publish('all', 'C')).json<{ announcementId: string }>().announcementId;
    expect(await finished(c)).toMatchObject({ queued: 3, sent: 3, failed: 0 });
    await maildev.waitForMail('peeter@example.ee', 'Teade C');
    await maildev.waitForMail('mari@example.ee', 'Teade C');
    await maildev.waitForMail('john@example.com', 'Notice C');
    expect(await inboxOf('mari@example.ee', 'Teade B')).toBe(0);
    expect(await inboxOf('kati@example.ee', 'C')).toBe(0);
    // Kati's link (erased) no longer works.
    const { unsubscribeToken } = await import('@sinilill/mail');
    expect((await commandApi.inject({ method: 'POST', url: '/api/unsubscribe', payload: { token: unsubscribeToken(SECRET, kati.participantId) } })).json()).toEqual({ message: 'INVALID_UNSUBSCRIBE_LINK' });
  });

  test('a refusing SMTP server is retried and counted as failed', async () => {
    // Port 1 refuses connections: every send fails.
    const refusing = smtpMailer({ url: 'smtp://127.0.0.1:1', from: 'info@sinilill.test' });
    let tries = 0;
    const counting = { send: async (mail: Parameters<typeof refusing.send>[0]) => { tries += 1; await refusing.send(mail); }, close: () => refusing.close() };
    const broken = new Announcements({
      store, redisUrl: inject('redisUrl'), prefix: `${prefix}-broken`, publicUrl: PUBLIC_URL, secret: SECRET, now: () => NOW,
      mailer: counting, attempts: 3, backoffMs: 20, ratePerSecond: 50,
    });
    broken.startWorker();
    try {
      const { announcementId } = await broken.publish({ subject_et: 'Katki', body_et: 'x', subject_en: 'Broken', body_en: 'x', audience: 'all' }, { userId: null, role: 'ADMIN' });
      const until = Date.now() + 15_000;
      let progress = (await broken.list()).find((a) => a.announcementId === announcementId)!;
      while (progress.failed < 3 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 100));
        progress = (await broken.list()).find((a) => a.announcementId === announcementId)!;
      }
      expect(progress).toMatchObject({ queued: 3, sent: 0, failed: 3 });
      // Three recipients (the `all` audience), three attempts each.
      expect(tries).toBe(9);
    } finally {
      await broken.close();
    }
  });
});
