/**
 * The money raised in the stats and on the team page on real PostgreSQL: a
 * payment that succeeds shows in GET /api/stats (raised_cents overall and on its team's entry),
 * in GET /api/stats/teams and in GET /api/team/{id}, EUR cents; the cached stats answer (keyed
 * on the positions of team-stats and payments) refreshes on it, even when team-stats was projected
 * first; the payments projection's batch
 * tells the live team page of the paying team, and only of it. Projections run by hand
 * (app.project); the change listener is real.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { CommandRequest } from '@sinilill/commands';
import type { PublicTeamPageAnswer, SessionClaims, StatsAnswer, TeamAnswer } from '@sinilill/contracts';
import type { ActingUser } from '@sinilill/domain';
import { buildQueryApi, ReadModelChangeListener } from '@sinilill/query-api';
import { READ_MODEL_CHANGES_CHANNEL, catchUp, parseReadModelChange, teamStatsProjection, type ReadModelChange } from '@sinilill/read-models';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const NOW = new Date('2025-04-15T09:00:00Z');
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const A = 1;
const B = 2;
const MARI = 11;
const JYRI = 21;

let serial = 0;
const request = (actor: ActingUser): CommandRequest => {
  const id = `money-raised-${++serial}`;
  return { actor, metadata: { commandId: id, correlationId: id, causationId: null } };
};
const claims = (participantId: number, teamId: number): SessionClaims => ({
  userId: `00000000-0000-4000-8000-${String(participantId).padStart(12, '0')}`, fullName: 'Test Person', is_approved: true,
  participantId, teamId, role: 'USER', isPaid: false,
});
const actorOf = (c: SessionClaims): ActingUser => ({ userId: c.userId, role: 'USER', participantId: c.participantId, teamId: c.teamId });

describe('money raised in the stats and on the team page', () => {
  let app: TestApplication;
  let changes: ReadModelChangeListener;
  let queryApi: FastifyInstance;
  let sessions: TestSessions;
  const mari = claims(MARI, A);
  const jyri = claims(JYRI, B);

  /** Orders `amountCents` as `who` (the fee when unpaid, else a donation) and records the provider's PAID. */
  const pay = async (who: SessionClaims, amountCents: number, isPaid: boolean) => {
    const { order } = await app.commands.orderPayment({
      isPaid, grandTotalCents: amountCents, amountCents, country: 'EE', method: 'SEB', provider: 'sandbox', countryMethods: ['SEB'],
    }, request(actorOf(who)));
    const { position } = await app.commands.recordPaymentOutcome({
      orderId: order.orderId, provider: 'sandbox', status: 'PAID', providerStatus: 'PAID', amountCents, currency: 'EUR', providerOrderId: null,
    });
    return position;
  };
  const stats = async (position?: number) => {
    const response = await queryApi.inject({ url: '/api/stats', headers: position ? { 'x-min-position': String(position) } : {} });
    expect(response.statusCode).toBe(200);
    return response.json<StatsAnswer>();
  };
  const raisedOf = (answer: StatsAnswer, teamId: number) => answer.teams.find((t) => t.team.id === teamId)?.raised_cents;
  const team = async (who: SessionClaims, teamId: number, position?: number) => {
    const response = await queryApi.inject({
      url: `/api/team/${teamId}`,
      headers: { authorization: sessions.bearer(queryApi, who), ...(position ? { 'x-min-position': String(position) } : {}) },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<TeamAnswer>();
  };

  beforeAll(async () => {
    app = await testApplication({ now: () => NOW });
    await app.commands.registerTeam({ teamId: A, teamName: 'Tartu Tammed', description: '', joinCode: 'AAAA1111', icon: null }, request(SYSTEM));
    await app.commands.registerTeam({ teamId: B, teamName: 'Pärnu Pääsukesed', description: '', joinCode: 'BBBB2222', icon: null }, request(SYSTEM));
    const person = { birthYear: 1980, gender: 'FEMALE' as const, newsletter: false, isCaptain: true };
    await app.commands.registerParticipant({ ...person, participantId: MARI, teamId: A, fullName: 'Mari Maasikas', email: 'mari@example.ee' }, request(SYSTEM));
    await app.commands.registerParticipant({ ...person, participantId: JYRI, teamId: B, fullName: 'Jüri Juurikas', email: 'jyri@example.ee' }, request(SYSTEM));
    sessions = testSessions(app, { now: () => NOW });
    await sessions.enrol(mari, jyri);
    await app.project();
    changes = new ReadModelChangeListener({ connectionString: app.url, reconnect: { minMs: 50, maxMs: 200 } });
    await changes.start();
    queryApi = buildQueryApi({ db: app.db, now: () => NOW, readYourWritesTimeoutMs: 3000, jwtSecret: SECRET, changes });
    await queryApi.ready();
  }, 120_000);

  afterAll(async () => {
    await queryApi?.close();
    await changes?.close();
    await app?.close();
  });

  test('before any payment every figure is 0 cents', async () => {
    const answer = await stats();
    expect(answer.raised_cents).toBe(0);
    expect(raisedOf(answer, A)).toBe(0);
    expect(raisedOf(answer, B)).toBe(0);
    expect((await team(mari, A)).raised_cents).toBe(0);
  });

  test('a fee and a donation that succeed show in the stats, the cached answer refreshing, and on the team page', async () => {
    const cached = await stats();
    // The raw notifications (changes.ts), to tell the payments projection's apart from the others'.
    const heard: ReadModelChange[] = [];
    const listener = new pg.Client({ connectionString: app.url });
    await listener.connect();
    listener.on('notification', (message) => {
      const change = parseReadModelChange(message.payload);
      if (change) heard.push(change);
    });
    await listener.query(`LISTEN ${READ_MODEL_CHANGES_CHANNEL}`);
    try {
      await pay(mari, 1500, false);
      const position = await pay(mari, 1234_50, true);
      // team-stats first: the answer is computed again (its position moved) before payments has
      // the money; once payments has it, the answer must be computed again too (payments in the
      // route's `reads`), not served from the cache of team-stats' position.
      await catchUp(app.db, app.store, teamStatsProjection);
      await expect.poll(() => changes.position(teamStatsProjection.name), { timeout: 5000 }).toBeGreaterThanOrEqual(position);
      expect((await stats()).raised_cents).toBe(0);
      await app.project();

      const answer = await stats(position);
      expect(answer.raised_cents).toBe(1500 + 1234_50);
      expect(raisedOf(answer, A)).toBe(1500 + 1234_50);
      expect(raisedOf(answer, B)).toBe(0);
      expect(answer).not.toEqual(cached);
      // The cached answer itself moved: a plain request (no x-min-position) has it.
      expect((await stats()).raised_cents).toBe(1500 + 1234_50);

      const page = (await queryApi.inject({ url: '/api/stats/teams', headers: { 'x-min-position': String(position) } })).json<PublicTeamPageAnswer>();
      expect(page.rows.find((row) => row.team.id === A)?.raised_cents).toBe(1500 + 1234_50);

      expect((await team(mari, A, position)).raised_cents).toBe(1500 + 1234_50);
      expect((await team(jyri, B, position)).raised_cents).toBe(0);

      // The payments projection's batches named team A (its money moved), never any other or "any team".
      await expect.poll(() => heard.some((c) => c.projection === 'payments' && c.position >= position), { timeout: 5000 }).toBe(true);
      const payments = heard.filter((c) => c.projection === 'payments' && c.teams !== null && c.teams.length > 0);
      expect(payments.length).toBeGreaterThan(0);
      expect(heard.filter((c) => c.projection === 'payments').every((c) => c.teams !== null && c.teams.every((t) => t === A))).toBe(true);
    } finally {
      await listener.end();
    }
  });
});
