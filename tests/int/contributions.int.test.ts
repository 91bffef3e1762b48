/**
 * "What this did" on real PostgreSQL: an entry's contribution folded from the
 * log (equal to the read model's team figures as of then), an edit counted as of the edit, a
 * participant's contributions, and who may read them: 401 without a token, 403 for a stranger,
 * 404 for what does not exist.
 */
import type {} from '@fastify/jwt'; // brings app.jwt's type (authPlugin registers the plugin)
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { CommandRequest } from '@sinilill/commands';
import type { ContributionAnswer, ParticipantContributionsAnswer, SessionClaims, TeamAnswer } from '@sinilill/contracts';
import { PERSONAL_DATA_FIELDS, type ActingUser } from '@sinilill/domain';
import { edition2025 } from '@sinilill/domain/seed';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection } from '@sinilill/event-store';
import { buildQueryApi } from '@sinilill/query-api';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const NOW = new Date('2025-04-20T10:00:00Z');
const A = 1;
const B = 2;
const ACCOUNT = {
  mari: '00000000-0000-4000-8000-000000000011',
  kati: '00000000-0000-4000-8000-000000000012',
  jyri: '00000000-0000-4000-8000-000000000021',
  admin: '00000000-0000-4000-8000-00000000ad01',
};
const person = (userId: string, participantId: number | null, teamId: number | null, role: 'USER' | 'ADMIN' = 'USER'): SessionClaims => ({
  userId, fullName: 'Test Person', is_approved: true, participantId, teamId, role, isPaid: true,
});
const PEOPLE = {
  mari: person(ACCOUNT.mari, 11, A),
  kati: person(ACCOUNT.kati, 12, A),
  jyri: person(ACCOUNT.jyri, 21, B),
  admin: person(ACCOUNT.admin, null, null, 'ADMIN'),
};

let commandCount = 0;
const as = (at = '2025-04-12T09:00:00Z'): CommandRequest => {
  const id = `contrib-${++commandCount}`;
  return { actor: SYSTEM, metadata: { commandId: id, correlationId: `corr-${id}`, causationId: null }, now: new Date(at) };
};
const walk = (participantId: number, distance: number) => ({ participantId, distance, entryType: 'WALK', performedAt: '2025-04-10' });

describe('"what this did"', () => {
  let app: TestApplication;
  let queryApi: FastifyInstance;
  let sessions: TestSessions;
  const ids = { first: 0, crossing: 0, edited: 0, deleted: 0, other: 0 };

  const get = (url: string, who?: SessionClaims) =>
    queryApi.inject({ url, headers: who ? { authorization: sessions.bearer(queryApi, who) } : {} });

  beforeAll(async () => {
    app = await testApplication({ now: () => NOW });
    const history = withPersonalDataProtection(new PostgresEventStore({ pool: app.pool }), new PersonalDataVault({ pool: app.pool }), PERSONAL_DATA_FIELDS);
    const people = { birthYear: 1980, gender: 'FEMALE' as const, newsletter: false };
    await app.commands.registerTeam({ teamId: A, teamName: 'Tartu Tammed', description: '', joinCode: 'AAAA1111', icon: null }, as('2025-03-01T08:00:00Z'));
    await app.commands.registerTeam({ teamId: B, teamName: 'Pärnu Pääsukesed', description: '', joinCode: 'BBBB2222', icon: null }, as('2025-03-01T08:00:00Z'));
    await app.commands.registerParticipant({ ...people, participantId: 11, teamId: A, fullName: 'Mari Maasikas', email: 'mari@example.ee', isCaptain: true }, as());
    await app.commands.registerParticipant({ ...people, participantId: 12, teamId: A, fullName: 'Kati Karu', email: 'kati@example.ee', isCaptain: false }, as());
    await app.commands.registerParticipant({ ...people, participantId: 21, teamId: B, fullName: 'Jüri Juurikas', email: 'jyri@example.ee', isCaptain: true }, as());
    // Team A: 20 km (Mari), then Kati's 10.5 km crosses mission 2 (27 km); team B's entry between.
    ids.first = (await app.commands.addEntry(walk(11, 20), as())).entry.id;
    ids.other = (await app.commands.addEntry(walk(21, 500), as())).entry.id;
    ids.crossing = (await app.commands.addEntry(walk(12, 10.5), as())).entry.id;
    // Mari's 2 km, edited to 9 km later (team at 32.5 → 39.5 km: crosses mission 3, 39 km).
    ids.edited = (await app.commands.addEntry(walk(11, 2), as())).entry.id;
    ids.deleted = (await app.commands.addEntry(walk(11, 1), as())).entry.id;
    await app.commands.deleteEntries([ids.deleted], as());
    await app.commands.editEntry(ids.edited, walk(11, 9), as());
    sessions = testSessions(app, { now: () => NOW });
    await sessions.enrol(PEOPLE.admin, PEOPLE.mari, PEOPLE.kati, PEOPLE.jyri);
    await app.project();
    queryApi = buildQueryApi({
      db: app.db, now: () => NOW, readYourWritesTimeoutMs: 3000, jwtSecret: SECRET,
      changes: { subscribe: () => () => undefined }, history,
    });
    await queryApi.ready();
  }, 120_000);

  afterAll(async () => {
    await queryApi?.close();
    await app?.close();
  });

  const contribution = (entryId: number, team = A) => `/api/team/${team}/entries/${entryId}/contribution`;

  describe('GET /api/team/{id}/entries/{entryId}/contribution', () => {
    test('an entry that crossed a mission: the team before and after, the mission by number and name', async () => {
      const response = await get(contribution(ids.crossing), PEOPLE.mari);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('private, no-store');
      const what = response.json<ContributionAnswer>();
      const mission2 = edition2025.route.missions[1]!;
      expect(what).toMatchObject({
        entryId: ids.crossing, teamId: A, participantId: 12, change: 'added',
        entryDistance: { before: null, after: 10.5 },
        distance: { before: 20, after: 31, gained: 11 },
        distanceExact: { before: 20, after: 30.5, gained: 10.5 },
        blueFlowers: { before: 2, after: 3, gained: 1 },
        prestige: { before: 0, after: 0, gained: 0 },
        lap: 1,
        missionsReached: [{ id: 2, lap: 1, name: mission2.name }],
        missionsLost: [],
      });
    });

    test('an edited entry counts as of the edit, after the deletion before it; the figures end at the read model\'s', async () => {
      const what = (await get(contribution(ids.edited), PEOPLE.kati)).json<ContributionAnswer>();
      expect(what.change).toBe('edited');
      expect(new Date(what.at).toISOString()).toBe('2025-04-12T09:00:00.000Z'); // the command's clock, not the log's
      expect(what.entryDistance).toEqual({ before: 2, after: 9 });
      expect(what.distanceExact).toEqual({ before: 32.5, after: 39.5, gained: 7 });
      expect(what.missionsReached.map((m) => m.id)).toEqual([3]);
      const team = (await get(`/api/team/${A}`, PEOPLE.mari)).json<TeamAnswer>();
      expect({ distance: team.distance, blueFlowers: team.blueFlowers }).toEqual({ distance: what.distance.after, blueFlowers: what.blueFlowers.after });
    });

    test('an administrator reads any team\'s', async () => {
      const response = await get(contribution(ids.other, B), PEOPLE.admin);
      expect(response.statusCode).toBe(200);
      expect(response.json<ContributionAnswer>().distance).toEqual({ before: 0, after: 500, gained: 500 });
    });

    test('refusals: 401 without a token, 403 for another team, 404 for a deleted, unknown or other team\'s entry', async () => {
      const cases: [string, SessionClaims | undefined, number, string][] = [
        [contribution(ids.crossing), undefined, 401, 'UNAUTHORIZED'],
        [contribution(ids.crossing), PEOPLE.jyri, 403, 'FORBIDDEN'],
        [contribution(ids.other, B), PEOPLE.mari, 403, 'FORBIDDEN'],
        [contribution(ids.deleted), PEOPLE.mari, 404, 'NOT_FOUND'],
        [contribution(999_999), PEOPLE.mari, 404, 'NOT_FOUND'],
        [contribution(ids.other, A), PEOPLE.mari, 404, 'NOT_FOUND'],
        [contribution(ids.crossing, 99), PEOPLE.admin, 404, 'NOT_FOUND'],
        ['/api/team/1/entries/x/contribution', PEOPLE.mari, 400, 'INVALID_REQUEST'],
      ];
      for (const [url, who, status, message] of cases) {
        const response = await get(url, who);
        expect([url, response.statusCode, response.json()]).toEqual([url, status, { message }]);
      }
    });
  });

  describe('GET /api/participant/{id}/contributions', () => {
    test('the participant\'s live entries, newest first, each with what its latest event did', async () => {
      for (const who of [PEOPLE.mari, PEOPLE.kati, PEOPLE.admin]) {
        const response = await get('/api/participant/11/contributions', who);
        expect(response.statusCode).toBe(200);
        const answer = response.json<ParticipantContributionsAnswer>();
        expect(answer).toMatchObject({ participantId: 11, teamId: A });
        expect(answer.contributions.map((c) => [c.entryId, c.distance, c.contribution.change, c.contribution.blueFlowers.gained])).toEqual([
          [ids.edited, 9, 'edited', 1],
          [ids.first, 20, 'added', 1],
        ]);
      }
    });

    test('refusals: 401 without a token, 403 for a stranger (known or not), 404 for an administrator asking for nobody', async () => {
      const cases: [string, SessionClaims | undefined, number, string][] = [
        ['/api/participant/11/contributions', undefined, 401, 'UNAUTHORIZED'],
        ['/api/participant/11/contributions', PEOPLE.jyri, 403, 'FORBIDDEN'],
        ['/api/participant/777/contributions', PEOPLE.jyri, 403, 'FORBIDDEN'],
        ['/api/participant/777/contributions', PEOPLE.admin, 404, 'NOT_FOUND'],
        ['/api/participant/0/contributions', PEOPLE.admin, 400, 'INVALID_REQUEST'],
      ];
      for (const [url, who, status, message] of cases) {
        const response = await get(url, who);
        expect([url, response.statusCode, response.json()]).toEqual([url, status, { message }]);
      }
    });
  });
});
