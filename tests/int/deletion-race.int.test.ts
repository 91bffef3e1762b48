/**
 * Deletions found in the event log, not in the read models, on both engines (real PostgreSQL, and
 * KurrentDB on the in-memory stand-in of its client): deleteTeams and deleteUsers find members
 * and entries through the stream index (packages/commands/src/stream-index.ts, EventStore.readEvents)
 * with no projector ever run, and remove them in one atomic append under the index's condition:
 * an entry or a member landing between the read and the append fails the condition and the
 * deletion gathers again. Raced 100 times, an add-entry and
 * a team deletion never leave an entry alive in a deleted team; raced 15 times, a join and a team
 * deletion never leave a member alive in a deleted team.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import pg from 'pg';
import { AccountDirectory, AccountService, CommandService, type CommandRequest } from '@sinilill/commands';
import { DomainError, streams, type ActingUser } from '@sinilill/domain';
import { AppendConditionFailedError, PersonalDataVault, type EventStore } from '@sinilill/event-store';
import { testApplication, type EventStoreEngine, type TestApplication } from '../support/app';
import { NO_MAIL } from '../support/sessions';

const NOW = new Date('2025-04-15T09:00:00Z');
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const ADMIN: ActingUser = { userId: '0b6f4c1e-6a0e-4c36-9a53-3f1f0b6a9c01', role: 'ADMIN', participantId: null, teamId: null };
const ROUNDS = 100;
const JOIN_ROUNDS = 15;

describe.each(['postgres', 'kurrentdb'] as const satisfies readonly EventStoreEngine[])('deletions from the event log (%s)', (engine) => {
  let app: TestApplication;
  let accountPool: pg.Pool;
  let store: EventStore;
  let directory: AccountDirectory;
  let commands: CommandService;
  let accounts: AccountService;
  let serial = 0;
  /** How many of the deletions' conditional appends found the index moved (and gathered again). */
  let conditionFailures = 0;
  /** Run once inside the next conditional append, before it: something landing between a deletion's read and its append. */
  let interlude: (() => Promise<unknown>) | null = null;
  /** Run once before the next plain append that writes an event of this type: a deletion landing between a command's read and its append. */
  let before: { type: string; run: () => Promise<unknown> } | null = null;

  const request = (actor: ActingUser, id: string): CommandRequest => ({ actor, metadata: { commandId: id, correlationId: id, causationId: null } });
  const system = (id: string) => request(SYSTEM, id);
  const admin = (id: string) => request(ADMIN, id);
  const lastType = async (stream: string) => (await store.readStream(stream)).at(-1)?.type;
  /** Entry ids ever added to the team, straight from the log (not the read models). */
  const entriesInLog = async (teamId: number) => (await store.readEvents({ types: ['EntryAdded'], data: [{ field: 'teamId', values: [teamId] }] }))
    .map((event) => Number(event.stream.slice('entry-'.length)));
  /** Participant ids ever registered into the team, from the log. */
  const membersInLog = async (teamId: number) => (await store.readEvents({ types: ['ParticipantRegistered'], data: [{ field: 'teamId', values: [teamId] }] }))
    .map((event) => Number(event.stream.slice('participant-'.length)));
  /** The refusal's code, or rethrows what is no DomainError. */
  const codeOf = (error: unknown) => {
    if (error instanceof DomainError) return error.code;
    throw error;
  };

  /** A team registered by the system with `members` members (accounts through the directory). */
  const seedTeam = async (name: string, members: number) => {
    const tag = `${name}-${++serial}`;
    const joinCode = `RC${String(serial).padStart(4, '0')}AB`;
    const { teamId } = await commands.registerTeam({ teamName: tag, description: '', joinCode, icon: null }, system(`${tag}:team`));
    const people: { participantId: number; userId: string; actor: ActingUser }[] = [];
    for (let m = 0; m < members; m++) {
      const email = `race-${serial}-${m}@example.ee`;
      const { participantId } = await commands.registerParticipant({
        teamId, fullName: `Liige ${m}`, email, birthYear: 1980, gender: 'FEMALE', isCaptain: m === 0, newsletter: false,
      }, system(`${tag}:p${m}`));
      const userId = (await directory.userIdOfEmail(email))!;
      people.push({ participantId, userId, actor: { userId, role: 'USER', participantId, teamId } });
    }
    return { teamId, joinCode, tag, people };
  };

  beforeAll(async () => {
    app = await testApplication({ now: () => NOW, engine });
    accountPool = new pg.Pool({ connectionString: app.url, max: 6 });
    directory = new AccountDirectory({ pool: accountPool, indexSecret: 'test-index-secret-0123456789' });
    const vault = new PersonalDataVault({ pool: app.pool });
    const base = app.store;
    store = {
      ...base,
      async appendToStreams(requests) {
        const hook = before;
        if (hook && requests.some((r) => r.events.some((event) => event.type === hook.type))) {
          before = null;
          await hook.run();
        }
        return base.appendToStreams(requests);
      },
      async appendToStreamsIf(requests, condition) {
        const run = interlude;
        interlude = null;
        if (run) await run();
        try {
          return await base.appendToStreamsIf(requests, condition);
        } catch (error) {
          if (error instanceof AppendConditionFailedError) conditionFailures++;
          throw error;
        }
      },
    };
    // No read-model look-ups at all (no membersOfTeam, no entriesOfParticipant): deletions must
    // find everything in the log, and no projector runs in this suite.
    commands = new CommandService({ store, ids: app.ids, now: () => NOW, directory, personalData: vault, streamIndex: store });
    accounts = new AccountService({ store, ids: app.ids, directory, mailer: NO_MAIL, now: () => NOW, publicUrl: 'http://sinilill.test' });
  }, 120_000);

  afterAll(async () => {
    await accountPool?.end();
    await app?.close();
  });

  test('deleteTeams finds members and entries with no read models at all; deleteUsers keeps the entries', async () => {
    const { teamId, tag, people: [a, b] } = await seedTeam('Logist', 2);
    const add = (participantId: number, id: string) =>
      commands.addEntry({ participantId, distance: 5, entryType: 'WALK', performedAt: '2025-04-10' }, system(`${tag}:${id}`));
    const { entry: a1 } = await add(a!.participantId, 'a1');
    const { entry: a2 } = await add(a!.participantId, 'a2');
    const { entry: b1 } = await add(b!.participantId, 'b1');
    // a2 moves to b by an edit: it is b's now (found through EntryEdited's participantId).
    await commands.editEntry(a2.id, { participantId: b!.participantId, distance: 6, entryType: 'WALK', performedAt: '2025-04-10' }, admin(`${tag}:move`));
    const rows = await app.pool.query<{ n: string }>(
      'SELECT (SELECT count(*) FROM rm.team_members) + (SELECT count(*) FROM rm.team_entries) AS n');
    expect(Number(rows.rows[0]!.n)).toBe(0);

    await commands.deleteUsers([b!.userId], admin(`${tag}:delete-b`));
    expect(await lastType(streams.user(b!.userId))).toBe('UserDeleted');
    expect(await lastType(streams.participant(b!.participantId))).toBe('ParticipantDeleted');
    // A person's deletion keeps their entries, as their own erasure does (docs/decisions/0109).
    expect(await lastType(streams.entry(b1.id))).toBe('EntryAdded');
    expect(await lastType(streams.entry(a2.id))).toBe('EntryEdited');
    expect(await lastType(streams.entry(a1.id))).toBe('EntryAdded');

    const { count } = await commands.deleteTeams([teamId], admin(`${tag}:delete-team`));
    expect(count).toBe(1);
    expect(await lastType(streams.team(teamId))).toBe('TeamDeleted');
    expect(await lastType(streams.user(a!.userId))).toBe('UserDeleted');
    expect(await lastType(streams.participant(a!.participantId))).toBe('ParticipantDeleted');
    // The team's deletion takes every entry of the team, a deleted member's too.
    for (const entry of [a1, a2, b1]) expect(await lastType(streams.entry(entry.id))).toBe('EntryDeleted');
    // Each deletion was one append (one command id per cascade).
    const teamDeletion = await Promise.all([streams.team(teamId), streams.participant(a!.participantId), streams.entry(a1.id)]
      .map(async (stream) => (await store.readStream(stream)).at(-1)!.metadata.commandId));
    expect(new Set(teamDeletion)).toEqual(new Set([`${tag}:delete-team`]));
    // After the deletion, the member's add-entry finds no participant.
    await expect(add(a!.participantId, 'late')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  test('an entry added and a member joined between the deletion\'s read and its append: gathered again, deleted too', async () => {
    const { teamId, joinCode, tag, people: [member] } = await seedTeam('Vahele', 1);
    const failuresBefore = conditionFailures;
    let late: { entryId: number; participantId: number } | null = null;
    interlude = async () => {
      const { entry } = await commands.addEntry(
        { participantId: member!.participantId, distance: 4, entryType: 'RUN', performedAt: '2025-04-11' }, request(member!.actor, `${tag}:late-entry`));
      const joined = await accounts.joinTeam({
        fullName: 'Vahele Liituja', email: `between-${serial}@example.ee`, gender: 'MALE', birthYear: 1990,
        password: 'kevadine-salasõna-1', newsletter: false, lang: 'est', joinCode,
      }, request({ userId: null, role: 'USER', participantId: null, teamId: null }, `${tag}:late-join`));
      late = { entryId: entry.id, participantId: joined.participantId };
    };
    await commands.deleteTeams([teamId], admin(`${tag}:delete`));
    expect(interlude).toBeNull();
    expect(conditionFailures - failuresBefore).toBe(1);
    const { entryId, participantId } = late!;
    expect(await lastType(streams.entry(entryId))).toBe('EntryDeleted');
    expect(await lastType(streams.participant(participantId))).toBe('ParticipantDeleted');
    expect(await lastType(streams.participant(member!.participantId))).toBe('ParticipantDeleted');
    expect(await lastType(streams.team(teamId))).toBe('TeamDeleted');
  });

  test('a join and an add-entry decided before their team\'s deletion and appended after it: refused, nothing in the deleted team', async () => {
    const { teamId, joinCode, tag, people: [member] } = await seedTeam('Hilised', 1);
    before = { type: 'ParticipantRegistered', run: () => commands.deleteTeams([teamId], admin(`${tag}:delete`)) };
    // The join's team check fails at its append, and judged again on the deleted team it is refused.
    await expect(accounts.joinTeam({
      fullName: 'Hiline Liituja', email: `late-${serial}@example.ee`, gender: 'MALE', birthYear: 1990,
      password: 'kevadine-salasõna-1', newsletter: false, lang: 'est', joinCode,
    }, request({ userId: null, role: 'USER', participantId: null, teamId: null }, `${tag}:join`))).rejects.toMatchObject({ code: 'INVALID_JOIN_CODE' });
    expect(before).toBeNull();
    expect(await lastType(streams.team(teamId))).toBe('TeamDeleted');
    expect(await membersInLog(teamId)).toEqual([member!.participantId]);

    const other = await seedTeam('Hilised', 1);
    const [otherMember] = other.people;
    before = { type: 'EntryAdded', run: () => commands.deleteTeams([other.teamId], admin(`${other.tag}:delete`)) };
    await expect(commands.addEntry(
      { participantId: otherMember!.participantId, distance: 2, entryType: 'WALK', performedAt: '2025-04-11' }, request(otherMember!.actor, `${other.tag}:add`),
    )).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(before).toBeNull();
    expect(await entriesInLog(other.teamId)).toEqual([]);
  });

  test(`an add-entry raced against its team's deletion ${ROUNDS} times: no entry survives its team`, async () => {
    const tally = { entryFirst: 0, deletionFirst: 0, deletionRefused: 0, addRefused: 0 };
    const failuresBefore = conditionFailures;
    for (let round = 0; round < ROUNDS; round++) {
      const { teamId, tag, people: [member] } = await seedTeam('Võidujooks', 1);
      // The deletion does more before its append (index, streams, accounts): the add-entry waits
      // 0–9 ms (by round) so that each wins some rounds, and some land in between.
      const [added, deleted] = await Promise.allSettled([
        sleep(round % 10).then(() => commands.addEntry(
          { participantId: member!.participantId, distance: 3, entryType: 'RUN', performedAt: '2025-04-12' },
          request(member!.actor, `${tag}:add`),
        )),
        commands.deleteTeams([teamId], admin(`${tag}:delete`)),
      ]);
      if (added.status === 'rejected') expect(codeOf(added.reason)).toBe('NOT_FOUND');
      if (deleted.status === 'rejected') expect(['NOT_FOUND', 'CONCURRENCY_CONFLICT']).toContain(codeOf(deleted.reason));

      const teamDeleted = (await lastType(streams.team(teamId))) === 'TeamDeleted';
      const entryIds = new Set(await entriesInLog(teamId));
      if (added.status === 'fulfilled') entryIds.add(added.value.entry.id);
      for (const entryId of entryIds) {
        const last = await lastType(streams.entry(entryId));
        if (teamDeleted) expect(last, `round ${round}: entry ${entryId} of deleted team ${teamId}`).toBe('EntryDeleted');
        else expect(last).toBe('EntryAdded');
      }
      if (teamDeleted) expect(await lastType(streams.participant(member!.participantId))).toBe('ParticipantDeleted');

      if (deleted.status === 'rejected') tally.deletionRefused++;
      else if (added.status === 'fulfilled') tally.entryFirst++;
      else tally.deletionFirst++;
      if (added.status === 'rejected') tally.addRefused++;
    }
    console.log(`add-entry vs deleteTeams, ${ROUNDS} rounds: entry first (deleted with its team) ${tally.entryFirst}, `
      + `deletion first (add-entry NOT_FOUND) ${tally.deletionFirst}, deletion refused ${tally.deletionRefused}; `
      + `index conditions that failed (gathered again) ${conditionFailures - failuresBefore}`);
    expect(tally.entryFirst + tally.deletionFirst + tally.deletionRefused).toBe(ROUNDS);
    expect(tally.deletionFirst).toBe(tally.addRefused);
  }, 60_000);

  test(`a join raced against its team's deletion ${JOIN_ROUNDS} times: no member survives its team`, async () => {
    const tally = { joinFirst: 0, deletionFirst: 0, deletionRefused: 0 };
    const failuresBefore = conditionFailures;
    for (let round = 0; round < JOIN_ROUNDS; round++) {
      const { teamId, tag, joinCode } = await seedTeam('Liitujad', 1);
      // A join hashes a password first (tens of ms): the deletion waits 0–70 ms (by round) so
      // that each wins some rounds.
      const [joined, deleted] = await Promise.allSettled([
        accounts.joinTeam({
          fullName: 'Hiline Liituja', email: `joiner-${serial}@example.ee`, gender: 'MALE', birthYear: 1990,
          password: 'kevadine-salasõna-1', newsletter: false, lang: 'est', joinCode,
        }, request({ userId: null, role: 'USER', participantId: null, teamId: null }, `${tag}:join`)),
        sleep(round * 5).then(() => commands.deleteTeams([teamId], admin(`${tag}:delete`))),
      ]);
      if (joined.status === 'rejected') expect(['INVALID_JOIN_CODE', 'CONCURRENCY_CONFLICT']).toContain(codeOf(joined.reason));
      if (deleted.status === 'rejected') expect(['NOT_FOUND', 'CONCURRENCY_CONFLICT']).toContain(codeOf(deleted.reason));

      if ((await lastType(streams.team(teamId))) === 'TeamDeleted') {
        for (const participantId of await membersInLog(teamId)) {
          expect(await lastType(streams.participant(participantId)), `round ${round}: member ${participantId}`).toBe('ParticipantDeleted');
        }
      }
      if (deleted.status === 'rejected') tally.deletionRefused++;
      else if (joined.status === 'fulfilled') tally.joinFirst++;
      else tally.deletionFirst++;
    }
    console.log(`join vs deleteTeams, ${JOIN_ROUNDS} rounds: join first (deleted with its team) ${tally.joinFirst}, `
      + `deletion first (join refused) ${tally.deletionFirst}, deletion refused ${tally.deletionRefused}; `
      + `index conditions that failed (gathered again) ${conditionFailures - failuresBefore}`);
  }, 60_000);
});
