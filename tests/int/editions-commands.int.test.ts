/**
 * Editions as data on the command side, on real PostgreSQL: an administrator plans, changes,
 * opens and closes editions over HTTP (every refusal code of the edition's data with the field
 * that broke it, EDITION_EXISTS, FORBIDDEN for a participant), and what belongs to an edition
 * follows it: entries only for the current edition and within its dates, a closed edition
 * read-only (entries, team changes, payments), and each edition's draw counting its own people.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { eligibleParticipants, type CommandRequest } from '@sinilill/commands';
import type { SessionClaims } from '@sinilill/contracts';
import { DomainError, streams, type ActingUser, type Edition } from '@sinilill/domain';
import { edition2025, edition2026Demo } from '@sinilill/domain/seed';
import { buildCommandApi } from '@sinilill/command-api';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const ADMIN: ActingUser = { userId: '00000000-0000-4000-8000-00000000ad01', role: 'ADMIN', participantId: null, teamId: null };
const SEED = 'a3a9c2d14b5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8';

let serial = 0;
const as = (actor: ActingUser, at: string): CommandRequest => {
  const id = `editions-${++serial}`;
  return { actor, metadata: { commandId: id, correlationId: id, causationId: null }, now: new Date(at) };
};
const user = (participantId: number, teamId: number): ActingUser => ({ userId: `00000000-0000-4000-8000-0000000000${participantId}`, role: 'USER', participantId, teamId });
const claims = (role: 'USER' | 'ADMIN'): SessionClaims => ({
  userId: role === 'ADMIN' ? ADMIN.userId! : '00000000-0000-4000-8000-000000000011',
  fullName: 'Test Person', is_approved: true, participantId: role === 'ADMIN' ? null : 11, teamId: role === 'ADMIN' ? null : 1, role, isPaid: true,
});
/** A deep, writable copy of an edition to break one field of. */
const copy = (edition: Edition): Edition => JSON.parse(JSON.stringify(edition)) as Edition;
const codeOf = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
    return 'accepted';
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
};

describe('editions on the command side', () => {
  let app: TestApplication;
  let clock = new Date('2025-04-15T09:00:00Z');
  let api: FastifyInstance;
  let sessions: TestSessions;

  const send = (method: 'POST' | 'PUT', url: string, payload?: unknown, role: 'USER' | 'ADMIN' | null = 'ADMIN') => api.inject({
    method, url: `/api${url}`,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: role === null ? {} : { authorization: sessions.bearer(api, claims(role)) },
  });
  const refused = (response: LightMyRequestResponse, status: number, message: string, field?: string) =>
    expect({ status: response.statusCode, body: response.json() as unknown }).toEqual({ status, body: field === undefined ? { message } : { message, field } });
  const refusedCode = (response: LightMyRequestResponse, status: number, message: string) =>
    expect({ status: response.statusCode, message: response.json<{ message: string }>().message }).toEqual({ status, message });

  beforeAll(async () => {
    app = await testApplication({ now: () => clock });
    const april = '2025-04-12T09:00:00Z';
    // 2025, written before any edition event (the catalogue then holds 2025): team 1 with Mari (paid, 12 km).
    await app.commands.registerTeam({ teamId: 1, teamName: 'Tartu Tammed', description: '', joinCode: 'AAAA1111', icon: null }, as(SYSTEM, april));
    await app.commands.registerParticipant({ participantId: 11, teamId: 1, fullName: 'Mari Maasikas', email: 'p11@example.ee', birthYear: 1980, gender: 'FEMALE', newsletter: false, isCaptain: true }, as(SYSTEM, april));
    await app.commands.markPayment(11, true, as(SYSTEM, april));
    await app.commands.addEntry({ participantId: 11, distance: 12, entryType: 'WALK', performedAt: '2025-04-10' }, as(SYSTEM, april));
    sessions = testSessions(app, { now: () => clock });
    await sessions.enrol(claims('ADMIN'), claims('USER'));
    api = buildCommandApi({ commands: app.commands, sessions: sessions.accounts, jwtSecret: SECRET });
    await api.ready();
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await app?.close();
  });

  test('an administrator plans 2025 (201, a draft) and opens it; its phase follows the clock', async () => {
    const planned = await send('POST', '/admin/editions', edition2025);
    expect(planned.statusCode).toBe(201);
    expect(planned.json()).toEqual({
      edition: { year: 2025, status: 'planned', phase: 'planned', registrationOpen: false, today: '2025-04-15', edition: edition2025 },
      position: await app.store.headPosition(),
    });
    const opened = await send('POST', '/admin/editions/2025/open');
    expect(opened.statusCode).toBe(200);
    expect(opened.json<{ position: number }>().position).toBe(planned.json<{ position: number }>().position + 1);
    expect(opened.json()).toMatchObject({ edition: { year: 2025, status: 'opened', phase: 'running', registrationOpen: true } });
    expect((await app.commands.editions()).current(clock.toISOString())?.edition.year).toBe(2025);
  });

  test('only administrators plan, change, open and close editions', async () => {
    refused(await send('POST', '/admin/editions', edition2026Demo, null), 401, 'UNAUTHORIZED');
    refused(await send('POST', '/admin/editions', edition2026Demo, 'USER'), 403, 'FORBIDDEN');
    refused(await send('PUT', '/admin/editions/2025', edition2025, 'USER'), 403, 'FORBIDDEN');
    refused(await send('POST', '/admin/editions/2025/open', undefined, 'USER'), 403, 'FORBIDDEN');
    refused(await send('POST', '/admin/editions/2025/close', undefined, 'USER'), 403, 'FORBIDDEN');
    expect((await app.commands.editions()).get(2026)).toBeUndefined();
  });

  test('invalid edition data is refused with its own code and the field that broke it', async () => {
    const overlapping = copy(edition2026Demo);
    overlapping.registrationOpens = '2025-05-01';
    refused(await send('POST', '/admin/editions', overlapping), 409, 'EDITION_DATES_OVERLAP', 'registrationOpens');

    const outOfOrder = copy(edition2026Demo);
    const [first, second] = outOfOrder.route.missions;
    outOfOrder.route.missions[0] = second!;
    outOfOrder.route.missions[1] = first!;
    refused(await send('POST', '/admin/editions', outOfOrder), 400, 'EDITION_ROUTE_INVALID', 'route');

    const negativeFee = copy(edition2026Demo);
    negativeFee.fees.adultCents = -100;
    refused(await send('POST', '/admin/editions', negativeFee), 400, 'EDITION_FEE_INVALID', 'fees.adultCents');

    const unnamed = copy(edition2026Demo);
    unnamed.route.missions[3]!.name.en = ' ';
    refused(await send('POST', '/admin/editions', unnamed), 400, 'EDITION_MISSION_NAME_MISSING', 'route.missions[3].name.en');

    const badDate = copy(edition2026Demo);
    badDate.startDate = '2026-02-30';
    refused(await send('POST', '/admin/editions', badDate), 400, 'EDITION_DATES_INVALID', 'startDate');

    const backwards = copy(edition2026Demo);
    backwards.endDate = '2026-03-20';
    refused(await send('POST', '/admin/editions', backwards), 400, 'EDITION_DATES_INVALID', 'endDate');

    const { name: _name, ...nameless } = copy(edition2026Demo);
    refused(await send('POST', '/admin/editions', nameless), 400, 'EDITION_INVALID', 'name.et');

    // Too large a body is still refused before any rule is read.
    const huge = copy(edition2026Demo);
    huge.route.missions[0]!.description.et = 'x'.repeat(300 * 1024);
    refused(await send('POST', '/admin/editions', huge), 413, 'REQUEST_TOO_LARGE');
    // Not an object at all: the schema's refusal.
    refused(await send('POST', '/admin/editions', [edition2026Demo]), 400, 'INVALID_REQUEST');

    expect((await app.commands.editions()).get(2026)).toBeUndefined();
  });

  test('2026 is planned once (EDITION_EXISTS), changed while not closed, and opened', async () => {
    expect((await send('POST', '/admin/editions', edition2026Demo)).statusCode).toBe(201);
    refused(await send('POST', '/admin/editions', edition2026Demo), 409, 'EDITION_EXISTS', 'year');
    const renamed = { ...copy(edition2026Demo), name: { et: 'Sinilill 2026: Balkan', en: 'Sinilill 2026: the Balkans' } };
    const changed = await send('PUT', '/admin/editions/2026', renamed);
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ edition: { year: 2026, status: 'planned', edition: { name: renamed.name } } });
    refused(await send('PUT', '/admin/editions/2026', { ...renamed, fees: { ...renamed.fees, childCents: 1.5 } }), 400, 'EDITION_FEE_INVALID', 'fees.childCents');
    refusedCode(await send('POST', '/admin/editions/2031/open'), 404, 'NOT_FOUND');
    const opened = await send('POST', '/admin/editions/2026/open');
    expect(opened.json()).toMatchObject({ edition: { year: 2026, status: 'opened', phase: 'upcoming', registrationOpen: false } });
  });

  test('closing waits for the late-entry deadline (EDITION_NOT_FINISHED) and makes the edition read-only', async () => {
    clock = new Date('2025-05-03T20:00:00Z'); // 23:00 in Tallinn on the last day of late entries
    refused(await send('POST', '/admin/editions/2025/close'), 409, 'EDITION_NOT_FINISHED');
    refusedCode(await send('POST', '/admin/editions/2026/close'), 409, 'EDITION_NOT_FINISHED');
    clock = new Date('2025-05-04T09:00:00Z');
    const closed = await send('POST', '/admin/editions/2025/close');
    expect(closed.statusCode).toBe(200);
    expect(closed.json()).toMatchObject({ edition: { year: 2025, status: 'closed', phase: 'closed', registrationOpen: false } });
    refusedCode(await send('PUT', '/admin/editions/2025', { ...copy(edition2025), name: { et: 'Muu', en: 'Other' } }), 409, 'EDITION_CLOSED');
    refusedCode(await send('POST', '/admin/editions/2025/open'), 409, 'EDITION_CLOSED');
    // The closed edition's things: entries (administrators too), team changes and payments.
    const entryId = await firstEntryOf(11);
    expect(await codeOf(app.commands.editEntry(entryId, { distance: 13, entryType: 'WALK', performedAt: '2025-04-10' }, as(ADMIN, clock.toISOString())))).toBe('ENTRY_DEADLINE_PASSED');
    expect(await codeOf(app.commands.deleteEntries([entryId], as(ADMIN, clock.toISOString())))).toBe('ENTRY_DEADLINE_PASSED');
    expect(await codeOf(app.commands.reviewEntries({ entryIds: [entryId], decision: 'reject', note: '' }, as(ADMIN, clock.toISOString())))).toBe('ENTRY_DEADLINE_PASSED');
    expect(await codeOf(app.commands.addEntry({ participantId: 11, distance: 1, entryType: 'WALK', performedAt: '2025-04-11' }, as(SYSTEM, clock.toISOString())))).toBe('ENTRY_DEADLINE_PASSED');
    expect(await codeOf(app.commands.changeTeamPublicAttributes(1, { description: 'Uus kirjeldus' }, as(user(11, 1), clock.toISOString())))).toBe('EDITION_CLOSED');
    expect(await codeOf(app.commands.changeTeamAsAdmin(1, { teamName: 'Tartu Tammed II' }, as(ADMIN, clock.toISOString())))).toBe('EDITION_CLOSED');
    expect(await codeOf(app.commands.replaceJoinCode(1, as(user(11, 1), clock.toISOString())))).toBe('EDITION_CLOSED');
    expect(await codeOf(app.commands.markPayment(11, false, as(ADMIN, clock.toISOString())))).toBe('EDITION_CLOSED');
    const donation = { isPaid: true, grandTotalCents: 500, amountCents: 500, country: 'EE', method: '', provider: 'sandbox', countryMethods: null };
    expect(await codeOf(app.commands.orderPayment(donation, as(user(11, 1), clock.toISOString())))).toBe('EDITION_CLOSED');
  });

  test('while 2026 runs, a 2025 participant logs nothing, and 2026 entries keep to 2026 dates', async () => {
    clock = new Date('2026-03-15T09:00:00Z');
    expect((await app.commands.editions()).current(clock.toISOString())?.edition.year).toBe(2026);
    // 2026: team 2 with Kati (paid; 200 km, past the first missions' flowers).
    const march = clock.toISOString();
    await app.commands.registerTeam({ teamId: 2, teamName: 'Pärnu Pääsukesed', description: '', joinCode: 'BBBB2222', icon: null }, as(SYSTEM, march));
    await app.commands.registerParticipant({ participantId: 21, teamId: 2, fullName: 'Kati Karu', email: 'p21@example.ee', birthYear: 1985, gender: 'FEMALE', newsletter: false, isCaptain: true }, as(SYSTEM, march));
    expect((await app.commands.participant(21)).edition).toBe(2026);
    await app.commands.markPayment(21, true, as(ADMIN, march));

    clock = new Date('2026-04-15T09:00:00Z');
    const april = clock.toISOString();
    // Mari's 2025 team is not the current edition's: refused even with a 2026 date.
    expect(await codeOf(app.commands.addEntry({ participantId: 11, distance: 5, entryType: 'WALK', performedAt: '2026-04-10' }, as(user(11, 1), april)))).toBe('ENTRY_DEADLINE_PASSED');
    const kati = user(21, 2);
    expect(await codeOf(app.commands.addEntry({ participantId: 21, distance: 5, entryType: 'WALK', performedAt: '2025-04-10' }, as(kati, april)))).toBe('INVALID_PERFORMED_AT');
    expect(await codeOf(app.commands.addEntry({ participantId: 21, distance: 5, entryType: 'WALK', performedAt: '2026-05-01' }, as(kati, april)))).toBe('INVALID_PERFORMED_AT');
    const added = await app.commands.addEntry({ participantId: 21, distance: 40, entryType: 'WALK', performedAt: '2026-04-10' }, as(kati, april));
    expect(added.entry).toMatchObject({ team_id: 2, participant_id: 21, distance: 40 });
    await app.commands.addEntry({ participantId: 21, distance: 160, entryType: 'CYCLING', performedAt: '2026-04-11' }, as(SYSTEM, april));
    // After 2026's late-entry deadline (4 May in Tallinn).
    clock = new Date('2026-05-04T06:00:00Z');
    expect(await codeOf(app.commands.addEntry({ participantId: 21, distance: 5, entryType: 'WALK', performedAt: '2026-04-20' }, as(kati, clock.toISOString())))).toBe('ENTRY_DEADLINE_PASSED');
  });

  test("the draw of 2026 sees 2026's participants only, and acts on the current edition or ?year=", async () => {
    // Mari (2025) paid and collected flowers by 2026's deadline too; she is not 2026's.
    expect(await eligibleParticipants(app.store, edition2026Demo)).toEqual([{ participantId: 21, teamId: 2 }]);
    expect(await eligibleParticipants(app.store, edition2025)).toEqual([{ participantId: 11, teamId: 1 }]);
    clock = new Date('2026-05-04T06:00:00Z');
    const commitment = createHash('sha256').update(SEED, 'utf8').digest('hex');
    refusedCode(await send('POST', '/admin/draw/commit?year=2031', { commitment, drawAt: '2026-05-05T17:00:00+03:00', winners: 1 }), 404, 'NOT_FOUND');
    refusedCode(await send('POST', '/admin/draw/commit?year=20x6', { commitment, drawAt: '2026-05-05T17:00:00+03:00', winners: 1 }), 400, 'INVALID_REQUEST');
    expect((await send('POST', '/admin/draw/commit', { commitment, drawAt: '2026-05-05T17:00:00+03:00', winners: 1 })).statusCode).toBe(200);
    clock = new Date('2026-05-06T09:00:00Z');
    expect((await send('POST', '/admin/draw/reveal?year=2026', { seed: SEED })).statusCode).toBe(200);
    const chosen = (await app.store.readStream(streams.draw(2026))).find((event) => event.type === 'DrawWinnersChosen');
    expect(chosen?.data).toMatchObject({ year: 2026, eligible: [21], winners: [{ participantId: 21, teamId: 2 }] });
    expect(await app.store.readStream(streams.draw(2025))).toEqual([]);
  });

  test('2026 closes after its deadline; its draw and data stay', async () => {
    const closed = await send('POST', '/admin/editions/2026/close');
    expect(closed.json()).toMatchObject({ edition: { year: 2026, status: 'closed' } });
    refused(await send('PUT', '/admin/editions/2026', edition2026Demo), 409, 'EDITION_CLOSED');
    const catalog = await app.commands.editions();
    expect(catalog.archived().map((r) => r.edition.year)).toEqual([2026, 2025]);
  });

  /** The id of the participant's first entry, from the log. */
  async function firstEntryOf(participantId: number): Promise<number> {
    const events = await app.store.readEvents({ category: 'entry' });
    const added = events.find((event) => event.type === 'EntryAdded' && (event.data as { participantId: number }).participantId === participantId);
    return (added!.data as { entryId: number }).entryId;
  }
});
