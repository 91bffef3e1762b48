/**
 * Rebuild sessions (docs/decisions/0043): during a replay team-stats and team-directory keep
 * their team and member rows in memory across the batches and write them at the end, and load an
 * entry's row only when an earlier batch wrote it. Whatever the batch size, the rebuilt tables
 * must equal the live ones, projected one event per batch: edits and deletions of entries made in
 * earlier batches, renames, payment marks, a member deleted, a team deleted with its members and
 * entries, and a poisoned event (a name PostgreSQL refuses) that both sides park in its own batch.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SCHEMA_VERSIONS, streams, type DomainEvent } from '@sinilill/domain';
import type { AppendRequest } from '@sinilill/event-store';
import { catchUp, compareReadModels, projections, rebuildReadModels, type Projection, type TableComparison } from '@sinilill/read-models';
import { testApplication, type TestApplication } from '../support/app';

const A = 1;
const B = 2;
const C = 3;
const at = (day: number) => `2025-04-${String(day).padStart(2, '0')}T08:00:00.000Z`;
const event = (e: DomainEvent) => ({
  id: randomUUID(), type: e.type, schemaVersion: SCHEMA_VERSIONS[e.type], data: e.data,
  metadata: { actor: { userId: null, role: 'SYSTEM' as const }, correlationId: 'rebuild-sessions', causationId: null },
});
const to = (stream: string, ...events: DomainEvent[]): AppendRequest => ({ stream, events: events.map(event), expectedRevision: 'any' });
const team = (teamId: number, teamName: string): AppendRequest => to(streams.team(teamId), {
  type: 'TeamRegistered', data: { teamId, edition: 2025, teamName, description: '', joinCode: `CODE${teamId}ABC`, icon: null, registeredAt: at(1) },
});
const member = (participantId: number, teamId: number, fullName: string): AppendRequest => to(streams.participant(participantId), {
  type: 'ParticipantRegistered',
  data: {
    participantId, teamId, edition: 2025, fullName, email: `p${participantId}@example.ee`, birthYear: 1980, gender: 'FEMALE',
    isCaptain: participantId % 10 === 1, newsletter: false, registeredAt: at(2),
  },
});
const added = (entryId: number, participantId: number, teamId: number, distance: number, day: number): AppendRequest => to(streams.entry(entryId), {
  type: 'EntryAdded', data: { entryId, teamId, participantId, distance, entryType: 'WALK', performedAt: `2025-04-${day}`, createdAt: at(day), source: { kind: 'manual' } },
});
const edited = (entryId: number, participantId: number, teamId: number, distance: number, day: number): AppendRequest => to(streams.entry(entryId), {
  type: 'EntryEdited', data: { entryId, teamId, participantId, distance, entryType: 'OUTDOOR_RUN', performedAt: `2025-04-${day}`, editedAt: at(20) },
});
const deleted = (entryId: number, participantId: number, teamId: number): AppendRequest => to(streams.entry(entryId), {
  type: 'EntryDeleted', data: { entryId, teamId, participantId, deletedAt: at(21) },
});
const flagged = (entryId: number, participantId: number, teamId: number): AppendRequest => to(streams.entry(entryId), {
  type: 'EntryFlagged', data: { entryId, teamId, participantId, reasons: [{ rule: 'MAX_KM_PER_ENTRY', limit: 60, value: 90 }], flaggedAt: at(15) },
});
const decided = (type: 'EntryReviewApproved' | 'EntryReviewRejected', entryId: number, participantId: number, teamId: number): AppendRequest => to(streams.entry(entryId), {
  type, data: { entryId, teamId, participantId, note: 'liiga pikk', decidedBy: '00000000-0000-4000-8000-000000000001', decidedAt: at(18) },
});

describe('a rebuild with sessions equals the live read models, whatever its batch size', () => {
  let app: TestApplication;
  /** The live tables' checksums as projected one event per batch, before any rebuild swapped its tables in. */
  let live: TableComparison[];
  /** The same projections without their rebuild sessions: the rebuild then applies batch after batch. */
  const withoutSessions: Projection[] = projections.map(({ rebuild: _session, ...projection }) => projection);

  beforeAll(async () => {
    app = await testApplication();
    const log: AppendRequest[][] = [ // grouped by what happens; appended one request at a time
      [team(A, 'Tartu Tammed'), team(B, 'Pärnu Pääsukesed'), team(C, 'Võru Vasikad')],
      [member(11, A, 'Mari Maasikas'), member(12, A, 'Kati Kask'), member(21, B, 'Jüri Juurikas'), member(31, C, 'Tiit Tamm')],
      [added(101, 11, A, 5, 10), added(102, 12, A, 3, 11), added(103, 21, B, 7, 10), added(104, 31, C, 2, 12), added(105, 31, C, 4, 13)],
      // A name with NUL: PostgreSQL refuses it, so team-directory and admin-directory park this event.
      [member(13, A, 'Evil\u0000Name')],
      [edited(101, 11, A, 6, 12), edited(103, 21, B, 1.5, 10), deleted(102, 12, A)],
      [
        to(streams.participant(11), { type: 'ParticipantPaymentMarked', data: { participantId: 11, isPaid: true } }),
        to(streams.participant(21), { type: 'ParticipantRenamed', data: { participantId: 21, fullName: 'Jüri Juur', renamedAt: at(15) } }),
        to(streams.team(B), { type: 'TeamRenamed', data: { teamId: B, teamName: 'Pärnu Pardid', renamedAt: at(15) } }),
        to(streams.team(A), { type: 'TeamPublicAttributesChanged', data: { teamId: A, description: 'Tammed', changedAt: at(15) } }),
        to(streams.team(A), { type: 'JoinCodeReplaced', data: { teamId: A, joinCode: 'NEWCODE1', replacedAt: at(15) } }),
      ],
      [to(streams.participant(12), { type: 'ParticipantDeleted', data: { participantId: 12, teamId: A, deletedAt: at(16) } })],
      [
        to(streams.team(C), { type: 'TeamDeleted', data: { teamId: C, deletedAt: at(17) } }),
        to(streams.participant(31), { type: 'ParticipantDeleted', data: { participantId: 31, teamId: C, deletedAt: at(17) } }),
        deleted(104, 31, C), deleted(105, 31, C),
      ],
      [added(106, 11, A, 2.25, 14), edited(106, 11, A, 2.5, 14)],
      // Moderation: flagged entries, one approved, one rejected in a later batch
      // (its km leave team-stats and its member's km in team-directory), one flagged in the same batch as added.
      [
        added(107, 11, A, 90, 15), flagged(107, 11, A), added(108, 21, B, 95, 15), flagged(108, 21, B),
        added(109, 11, A, 85, 16), flagged(109, 11, A),
      ],
      [decided('EntryReviewRejected', 107, 11, A), decided('EntryReviewApproved', 108, 21, B)],
      [edited(108, 21, B, 96, 15), decided('EntryReviewRejected', 109, 11, A)],
    ];
    for (const request of log.flat()) await app.store.appendToStreams([request]);
    // Live: one event per batch, the opposite of a rebuild's large ones.
    for (const projection of projections) await catchUp(app.db, app.store, projection, { batchSize: 1 });
    live = await compareReadModels(app.db, 'rm', null);
  }, 120_000);
  /** Each table's rows and checksum, as (table, rows, checksum) triples. */
  const sums = (checksums: readonly TableComparison[]) => checksums.map((c) => [c.table, c.rebuilt.rows, c.rebuilt.checksum]);
  afterAll(async () => app?.close());

  test('team-stats and team-directory have rebuild sessions', () => {
    expect(projections.filter((p) => p.rebuild).map((p) => p.name).sort()).toEqual(['team-directory', 'team-stats']);
  });

  test('the live read models hold what the log says (so that the comparisons below compare something)', async () => {
    const rm = app.db.withSchema('rm');
    const teams = await rm.selectFrom('team_stats').select(['team_id', 'team_name', 'distance_hundredths', 'participants']).orderBy('team_id').execute();
    expect(teams.map((t) => [t.team_id, t.team_name, Number(t.distance_hundredths), t.participants])).toEqual([
      // 107 and 109 rejected (90 and 85 km out); 108 approved and edited to 96 km.
      [A, 'Tartu Tammed', 850, 2], [B, 'Pärnu Pardid', 9750, 1],
    ]);
    const members = await rm.selectFrom('team_members').select(['participant_id', 'full_name', 'is_paid', 'distance_hundredths']).orderBy('participant_id').execute();
    expect(members.map((m) => [m.participant_id, m.full_name, m.is_paid, Number(m.distance_hundredths)])).toEqual([
      [11, 'Mari Maasikas', true, 850], [21, 'Jüri Juur', false, 9750],
    ]);
    const parked = await rm.selectFrom('parked_events').select('projection').orderBy('projection').execute();
    expect(parked.map((p) => p.projection)).toEqual(['admin-directory', 'team-directory']);
  });

  // Each rebuild swaps its tables in, so each is compared with the live tables as first projected.
  for (const batchSize of [1, 2, 3, 7, 1000]) {
    test(`a rebuild in batches of ${batchSize} matches every live table`, async () => {
      const result = await rebuildReadModels(app.db, app.store, projections, { batchSize });
      expect(result.checksums.find((c) => c.table === 'team_entries')?.rebuilt.rows).toBe(6);
      expect(sums(result.checksums)).toEqual(sums(live));
    }, 60_000);
  }

  test('a rebuild without the sessions gives the same tables', async () => {
    const without = await rebuildReadModels(app.db, app.store, withoutSessions, { batchSize: 2 });
    expect(sums(without.checksums)).toEqual(sums(live));
  }, 60_000);
});
