/**
 * The synthetic edition: deterministic, sized as asked, and valid under the
 * same deciders the import runs (checked here in memory, without a database); and the flags of
 * `npm run import`.
 */
import { describe, expect, test } from 'vitest';
import {
  accountDecider,
  entryDecider,
  participantDecider,
  teamDecider,
  type DecisionContext,
  type Gender,
  type ParticipantState,
} from '@sinilill/domain';
import { edition2025 } from '@sinilill/domain/seed';
import { parseImportFlags } from './import-flags';
import { syntheticEdition } from './synthetic-edition';

const context = (at: string): DecisionContext => ({
  now: new Date(at).toISOString(), actor: { userId: null, role: 'SYSTEM', participantId: null, teamId: null }, entryInsertionEnabled: true,
  // The synthetic edition's rows are of April 2025: the import decides them under the 2025 edition.
  edition: edition2025,
});

describe('syntheticEdition', () => {
  test('is deterministic for a seed and differs for another', () => {
    const a = syntheticEdition({ events: 5000, seed: 3 });
    const b = syntheticEdition({ events: 5000, seed: 3 });
    const c = syntheticEdition({ events: 5000, seed: 4 });
    expect(b.teams).toEqual(a.teams);
    expect(b.participants).toEqual(a.participants);
    expect([...b.entries]).toEqual([...a.entries]);
    // Re-iterable: the entries come out the same every time.
    expect([...a.entries]).toEqual([...a.entries]);
    expect([...c.entries]).not.toEqual([...a.entries]);
  });

  test.each([1_000, 20_000, 1_000_000])('makes %i events, with accounts or without', (events) => {
    for (const accounts of [true, false]) {
      const edition = syntheticEdition({ events, accounts });
      const paid = edition.participants.filter((p) => p.is_paid === 'true').length;
      const count = edition.teams.length + edition.participants.length * (accounts ? 2 : 1) + paid + edition.entryCount;
      expect(count).toBe(events);
      expect(edition.expectedEvents).toBe(events);
    }
  });

  test('starts its ids where asked, ids unique and in order', () => {
    const edition = syntheticEdition({ events: 3000, firstIds: { team: 100_001, participant: 1_000_001, entry: 10_000_001 } });
    expect(edition.teams[0]!.id).toBe('100001');
    expect(edition.participants[0]!.id).toBe('1000001');
    const entries = [...edition.entries];
    expect(entries[0]!.id).toBe('10000001');
    expect(edition.maxEntryId).toBe(10_000_000 + entries.length);
    expect(entries.map((e) => Number(e.id))).toEqual(entries.map((_, i) => 10_000_001 + i));
  });

  test('every row passes the deciders as the import decides them (SYSTEM, at the row\'s created_at)', () => {
    const edition = syntheticEdition({ events: 20_000, seed: 11 });
    const teams = new Set<number>();
    const members = new Map<number, number[]>();
    for (const row of edition.teams) {
      const teamId = Number(row.id);
      const [event] = teamDecider.decide({
        type: 'RegisterTeam', data: { teamId, teamName: row.team_name, description: row.description, joinCode: row.join_code, icon: null },
      }, teamDecider.initialState(), context(row.created_at));
      expect(event!.type).toBe('TeamRegistered');
      teams.add(teamId);
    }
    const states = new Map<number, ParticipantState>();
    const emails = new Set<string>();
    for (const row of edition.participants) {
      const participantId = Number(row.id);
      const teamId = Number(row.team_id);
      expect(teams.has(teamId)).toBe(true);
      expect(row.created_at > edition.teams.find((t) => t.id === row.team_id)!.created_at).toBe(true);
      const ctx = context(row.created_at);
      let state = participantDecider.initialState();
      for (const event of participantDecider.decide({
        type: 'RegisterParticipant',
        data: {
          participantId, teamId, fullName: row.full_name, email: row.email, birthYear: Number(row.birth_year),
          gender: row.gender as Gender, isCaptain: row.is_captain === 'true', newsletter: false,
        },
      }, state, ctx)) state = participantDecider.evolve(state, event);
      if (row.is_paid === 'true') {
        for (const event of participantDecider.decide({ type: 'MarkPayment', data: { participantId, isPaid: true } }, state, ctx)) {
          state = participantDecider.evolve(state, event);
        }
      }
      accountDecider.decide({
        type: 'RegisterUser',
        data: {
          userId: '00000000-0000-4000-8000-000000000001', participantId, email: row.email, fullName: row.full_name,
          role: 'USER', approved: true, hasPassword: false, lang: 'est', registrationEnabled: true,
        },
      }, accountDecider.initialState(), ctx);
      emails.add(row.email);
      states.set(participantId, state);
      members.set(teamId, [...(members.get(teamId) ?? []), participantId]);
    }
    expect(emails.size).toBe(edition.participants.length);
    expect(new Set(edition.teams.map((t) => t.team_name.toLowerCase())).size).toBe(edition.teams.length);
    expect(new Set(edition.teams.map((t) => t.join_code)).size).toBe(edition.teams.length);
    const sizes = [...members.values()].map((m) => m.length);
    expect(sizes.reduce((a, b) => a + b, 0) / sizes.length).toBeGreaterThan(6);
    expect(sizes.reduce((a, b) => a + b, 0) / sizes.length).toBeLessThan(10);

    let previous = '';
    for (const row of edition.entries) {
      const participant = states.get(Number(row.participant_id))!;
      expect(row.performed_at >= '2025-04-01' && row.performed_at <= '2025-04-30').toBe(true);
      expect(row.created_at.slice(0, 10)).toBe(row.performed_at);
      expect(row.created_at < '2025-05-03').toBe(true);
      expect(row.created_at >= previous).toBe(true);
      previous = row.created_at;
      const [event] = entryDecider.decide({
        type: 'AddEntry',
        data: {
          entryId: Number(row.id), teamId: participant.teamId!, participantId: Number(row.participant_id),
          participantTeamId: participant.teamId, distance: Number(row.distance), entryType: row.entry_type, performedAt: row.performed_at,
        },
      }, entryDecider.initialState(), context(row.created_at));
      expect(event!.type).toBe('EntryAdded');
    }
  });

  test('refuses a size that is not a positive integer', () => {
    expect(() => syntheticEdition({ events: 0 })).toThrow(RangeError);
    expect(() => syntheticEdition({ events: 1.5 })).toThrow(RangeError);
  });
});

describe('parseImportFlags', () => {
  test('reads --synthetic, --seed and --batch, with = or a separate value, underscores allowed', () => {
    const none = { year: null, dir: null };
    expect(parseImportFlags([])).toEqual({ synthetic: null, seed: 1, batchEvents: null, ...none });
    expect(parseImportFlags(['--synthetic', '1000000'])).toEqual({ synthetic: 1_000_000, seed: 1, batchEvents: null, ...none });
    expect(parseImportFlags(['--synthetic=1_000_000', '--seed=5', '--batch', '2000'])).toEqual({ synthetic: 1_000_000, seed: 5, batchEvents: 2000, ...none });
  });

  test("reads the export's --year and --dir", () => {
    expect(parseImportFlags(['--year', '2024', '--dir=/srv/export-2024'])).toMatchObject({ year: 2024, dir: '/srv/export-2024' });
    expect(() => parseImportFlags(['--year=24'])).toThrow('--year needs a year from 2000 to 9999');
    expect(() => parseImportFlags(['--dir'])).toThrow('--dir needs a directory');
  });

  test('refuses unknown flags and values that are not positive integers', () => {
    expect(() => parseImportFlags(['--synthetc', '5'])).toThrow('unknown argument --synthetc');
    expect(() => parseImportFlags(['--synthetic'])).toThrow('needs a positive integer');
    expect(() => parseImportFlags(['--synthetic=-3'])).toThrow('needs a positive integer');
    expect(() => parseImportFlags(['--batch=many'])).toThrow('needs a positive integer');
  });
});
