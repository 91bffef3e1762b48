/**
 * TEAM_DAY_OUTLIER on the real read models: the command API's look-up
 * (readModelLookups.teamDayOf) reads a team's other entries of the day, its members and every other
 * team's km per member that day; with it wired, an entry that takes its team past 4 × the other
 * teams' 90th percentile per member is flagged, one 0.01 km per member less is not, and with fewer
 * than 10 other teams the rule does not apply.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CommandService, type CommandRequest } from '@sinilill/commands';
import { readModelLookups } from '@sinilill/command-api';
import { streams, type ActingUser } from '@sinilill/domain';
import { streamIndexOn, testApplication, type TestApplication } from '../support/app';

const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
let serial = 0;
const request = (actor: ActingUser): CommandRequest => {
  serial += 1;
  return { actor, metadata: { commandId: `team-day-${serial}`, correlationId: `team-day-${serial}`, causationId: null } };
};
const member = (participantId: number, teamId: number): ActingUser => ({ userId: `00000000-0000-4000-8000-${String(participantId).padStart(12, '0')}`, role: 'USER', participantId, teamId });
const DAY = '2025-04-14';

describe('TEAM_DAY_OUTLIER through the read models', () => {
  let app: TestApplication;
  let commands: CommandService;
  const lookups = () => readModelLookups(app.pool);

  beforeAll(async () => {
    app = await testApplication({ now: () => new Date('2025-04-15T09:00:00Z') });
    // Eleven teams of one member each; teams 2–11 walk 1…10 km on DAY (90th percentile: 9 km per member).
    for (let team = 1; team <= 11; team += 1) {
      await app.commands.registerTeam({ teamId: team, teamName: `Tiim ${team}`, description: '', joinCode: `CODE${String(team).padStart(4, '0')}`, icon: null }, request(SYSTEM));
      await app.commands.registerParticipant({
        participantId: 100 + team, teamId: team, fullName: `Liige ${team}`, email: `p${team}@example.ee`, birthYear: 1980, gender: 'FEMALE', isCaptain: true, newsletter: false,
      }, request(SYSTEM));
      if (team > 1) await app.commands.addEntry({ participantId: 100 + team, distance: team - 1, entryType: 'WALK', performedAt: DAY }, request(SYSTEM));
    }
    await app.project();
    commands = new CommandService({ store: app.store, ids: app.ids, now: () => new Date('2025-04-15T09:00:00Z'), streamIndex: streamIndexOn(app.pool), teamDayOf: (...args) => lookups().teamDayOf(...args) });
  }, 120_000);
  afterAll(async () => app?.close());

  const flagsOf = async (entryId: number) => (await app.store.readStream(streams.entry(entryId))).filter((e) => e.type === 'EntryFlagged');

  test('the look-up reads the team\'s day, its members and the other teams\' km per member', async () => {
    expect(await lookups().teamDayOf(101, DAY, 0)).toEqual({ otherHundredths: 0, members: 1, othersPerMember: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] });
    expect(await lookups().teamDayOf(999, DAY, 0)).toBeNull();
  });

  test('exactly 4 × the 90th percentile (36 km) passes; 0.01 km more is flagged with the rule', async () => {
    const atLimit = await commands.addEntry({ participantId: 101, distance: 36, entryType: 'OUTDOOR_CYCLE', performedAt: DAY }, request(member(101, 1)));
    expect(await flagsOf(atLimit.entry.id)).toEqual([]);
    await app.project();
    const over = await commands.addEntry({ participantId: 101, distance: 0.01, entryType: 'OUTDOOR_CYCLE', performedAt: DAY }, request(member(101, 1)));
    const [flag] = await flagsOf(over.entry.id);
    expect(flag?.data).toMatchObject({ reasons: [{ rule: 'TEAM_DAY_OUTLIER', limit: 36, value: 36.01 }] });
  });

  test('another day, with fewer than 10 other teams, is not judged by it', async () => {
    const lone = await commands.addEntry({ participantId: 101, distance: 50, entryType: 'OUTDOOR_CYCLE', performedAt: '2025-04-13' }, request(member(101, 1)));
    expect(await flagsOf(lone.entry.id)).toEqual([]);
  });
});
