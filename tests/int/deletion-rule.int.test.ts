/**
 * One deletion rule (docs/decisions/0109): an administrator's deletion of a person and the
 * person's own erasure do the same to the team's kilometres: the entries stay (the privacy page
 * says so), the person's name goes. Checked on the team's statistics as the projections fold the
 * log, before and after each kind of deletion, and again after a replay of the whole log.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import pg from 'pg';
import { AccountDirectory, AccountService, CommandService } from '@sinilill/commands';
import { PERSONAL_DATA_FIELDS, streams, type ActingUser } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection } from '@sinilill/event-store';
import { projections, rebuildReadModels } from '@sinilill/read-models';
import { streamIndexOn, testApplication, type TestApplication } from '../support/app';
import { NO_MAIL } from '../support/sessions';

const NOW = new Date('2025-04-15T09:00:00Z');
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const ADMIN: ActingUser = { userId: randomUUID(), role: 'ADMIN', participantId: null, teamId: null };
const PASSWORD = 'Kustutamise reegel 2025!';

let app: TestApplication;
let accountPool: pg.Pool;
let commands: CommandService;
let accounts: AccountService;
let directory: AccountDirectory;

const request = (actor: ActingUser, commandId = randomUUID()) => ({ actor, metadata: { commandId, correlationId: commandId, causationId: null } });

beforeAll(async () => {
  app = await testApplication({ now: () => NOW });
  accountPool = new pg.Pool({ connectionString: app.url, max: 6 });
  directory = new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' });
  commands = new CommandService({
    store: app.store, ids: app.ids, now: () => NOW, directory, personalData: new PersonalDataVault({ pool: app.pool }), streamIndex: streamIndexOn(app.pool),
  });
  accounts = new AccountService({ store: app.store, ids: app.ids, directory, mailer: NO_MAIL, now: () => NOW, publicUrl: 'http://sinilill.test' });
}, 120_000);

afterAll(async () => {
  await accountPool?.end();
  await app?.close();
});

/** The team's row of the statistics (km rounded and exact, members), as the projections have it. */
async function teamFigures(teamId: number) {
  const row = await app.db.withSchema('rm').selectFrom('team_stats').select(['distance', 'distance_hundredths', 'participants'])
    .where('team_id', '=', teamId).executeTakeFirstOrThrow();
  return { distance: Number(row.distance), hundredths: Number(row.distance_hundredths), participants: Number(row.participants) };
}

/** The types of the events one command appended (every stream), in order. */
async function typesOfCommand(commandId: string): Promise<string[]> {
  return (await app.store.readAll({ after: 0, maxCount: 100_000 })).filter((event) => event.metadata.commandId === commandId).map((event) => event.type);
}

test('an administrator\'s deletion and a self-erasure keep the team\'s km alike; the names go; a replay gives the same', async () => {
  const tag = randomUUID().slice(0, 8);
  const { teamId } = await commands.registerTeam({ teamName: `Reegel ${tag}`, description: '', joinCode: `RG${tag.slice(0, 6).toUpperCase()}`, icon: null }, request(SYSTEM));
  const people: { participantId: number; userId: string }[] = [];
  for (const [n, name] of ['Anu Alles', 'Birgit Kustutatud', 'Cärol Ise'].entries()) {
    const email = `reegel-${tag}-${n}@example.ee`;
    const { participantId } = await commands.registerParticipant({
      teamId, fullName: name, email, birthYear: 1980, gender: 'FEMALE', isCaptain: n === 0, newsletter: false,
    }, request(SYSTEM));
    people.push({ participantId, userId: (await directory.userIdOfEmail(email))! });
  }
  const [anu, birgit, carol] = people as [typeof people[0], typeof people[0], typeof people[0]];
  for (const [who, km] of [[anu, 5.25], [birgit, 7.5], [carol, 11.25], [carol, 2]] as const) {
    await commands.addEntry({ participantId: who.participantId, distance: km, entryType: 'WALK', performedAt: '2025-04-10' }, request(SYSTEM));
  }
  await app.project();
  const before = await teamFigures(teamId);
  expect(before).toEqual({ distance: 26, hundredths: 2600, participants: 3 });

  // An administrator deletes Birgit.
  const byAdmin = randomUUID();
  await commands.deleteUsers([birgit.userId], request(ADMIN, byAdmin));
  await app.project();
  expect(await teamFigures(teamId)).toEqual({ ...before, participants: 2 });

  // Cärol erases herself (her password set first: she was imported without one).
  await accounts.adminResetPassword(carol.userId, PASSWORD, request(ADMIN));
  const byOwner = randomUUID();
  await commands.eraseOwnAccount(PASSWORD, request({ userId: carol.userId, role: 'USER', participantId: carol.participantId, teamId }, byOwner));
  await app.project();
  const after = await teamFigures(teamId);
  expect(after).toEqual({ ...before, participants: 1 });

  // The same events for both kinds: the account and the participant go, no entry does.
  expect(await typesOfCommand(byAdmin)).toEqual(['UserDeleted', 'ParticipantDeleted']);
  expect(await typesOfCommand(byOwner)).toEqual(['UserDeleted', 'ParticipantDeleted']);
  // The entries stay in the team's table; the deleted people's names are unreadable in the log.
  const rows = await app.db.withSchema('rm').selectFrom('team_entries').select(['participant_id']).where('team_id', '=', teamId).execute();
  expect(rows.map((row) => row.participant_id).sort((a, b) => a - b)).toEqual([anu, birgit, carol, carol].map((who) => who.participantId).sort((a, b) => a - b));
  // Read with no cached key, as the history does.
  const log = withPersonalDataProtection(new PostgresEventStore({ pool: app.pool }), new PersonalDataVault({ pool: app.pool, cacheTtlMs: 0 }), PERSONAL_DATA_FIELDS);
  for (const who of [birgit, carol]) {
    expect((await log.readStream(streams.participant(who.participantId)))[0]!.data).toMatchObject({ fullName: null, email: null });
  }
  expect((await log.readStream(streams.participant(anu.participantId)))[0]!.data).toMatchObject({ fullName: 'Anu Alles' });

  // A replay of the whole log gives the same read models, the same km.
  const replay = await rebuildReadModels(app.db, app.store, projections);
  expect(replay.checksums.filter((c) => !c.match).map((c) => c.table)).toEqual([]);
  expect(await teamFigures(teamId)).toEqual(after);
}, 120_000);
