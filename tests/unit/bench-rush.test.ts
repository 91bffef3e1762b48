/**
 * The rush's pure parts (tests/bench/rush.ts and rush/): the people it imports, the addresses its
 * clients come from, how it reads the live stream, and that its lines compare with the last kept
 * run the right way round (kept-runs.ts reads a line's headline).
 */
import { describe, expect, test } from 'vitest';
import { headlineOf } from '../bench/kept-runs';
import { RUSH, rushRows, type RushFigures } from '../bench/rush';
import { clientAddress, takeChanges } from '../bench/rush/clients';
import { rushPeople } from '../bench/rush/people';

describe('rushPeople', () => {
  const { rows, people } = rushPeople({ teams: RUSH.teams, participants: RUSH.participants, readersPerTeam: RUSH.readersPerTeam });

  test('1 000 participants over 150 teams of 6 or 7, each with one captain and two readers', () => {
    expect(rows.teams).toHaveLength(150);
    expect(people).toHaveLength(1000);
    const sizes = new Map<number, number>();
    for (const person of people) sizes.set(person.teamId, (sizes.get(person.teamId) ?? 0) + 1);
    expect([...sizes.values()].filter((size) => size === 7)).toHaveLength(100);
    expect([...sizes.values()].filter((size) => size === 6)).toHaveLength(50);
    expect(people.filter((person) => person.reader)).toHaveLength(300);
    const captains = rows.participants.filter((row) => row.is_captain === 'true').map((row) => row.team_id);
    expect(new Set(captains).size).toBe(150);
    expect(captains).toHaveLength(150);
  });

  test('names, e-mails and join codes are unique; entries are April days before the last, ids in order', () => {
    expect(new Set(rows.teams.map((team) => team.team_name)).size).toBe(150);
    expect(new Set(rows.teams.map((team) => team.join_code)).size).toBe(150);
    expect(new Set(people.map((person) => person.email)).size).toBe(1000);
    const entries = [...rows.entries];
    expect(entries).toHaveLength(13_000);
    expect(entries.every((entry) => entry.performed_at >= '2025-04-01' && entry.performed_at <= '2025-04-29')).toBe(true);
    expect(entries.map((entry) => Number(entry.id))).toEqual(entries.map((_, index) => index + 1));
    expect(rows.maxEntryId).toBe(13_000);
  });

  test('refuses fewer participants than the readers need', () => {
    expect(() => rushPeople({ teams: 10, participants: 15 })).toThrow(RangeError);
  });
});

test('every client has a loopback address of its own, never 127.0.0.1', () => {
  const addresses = Array.from({ length: 1000 }, (_, i) => clientAddress(i));
  expect(new Set(addresses).size).toBe(1000);
  expect(addresses).not.toContain('127.0.0.1');
  expect(addresses.every((address) => /^127\.0\.\d{1,3}\.\d{1,3}$/.test(address) && !address.endsWith('.0'))).toBe(true);
});

describe('takeChanges', () => {
  test('reads the positions of whole change events and keeps a partial one for the next chunk', () => {
    const stream = ': connected\n\nevent: change\ndata: {"teamId":3,"position":41}\n\n: keep-alive\n\nevent: change\ndata: {"teamId":3,"pos';
    const first = takeChanges(stream);
    expect(first.positions).toEqual([41]);
    const second = takeChanges(`${first.rest}ition":57}\n\n`);
    expect(second).toEqual({ positions: [57], rest: '' });
  });

  test('skips events of other types', () => {
    expect(takeChanges('event: other\ndata: {"position":9}\n\n').positions).toEqual([]);
  });
});

test('the rows\' headlines compare the right way round with the last kept run', () => {
  const figures: RushFigures = {
    participants: 1000, teams: 150, readers: 300,
    evening: {
      seconds: 60.2, calls: 54_000, entriesAdded: 3000, keys: new Map(), lags: [10, 20, 30], unheard: 0,
      readYourWrites: [40, 50], statsCache: { BYPASS: 10 }, loopDelay: { p99: 12, max: 30 }, streamsDropped: 0,
    },
    routes: [{ route: 'POST /api/entry', calls: 3000, p50: 20, p99: 120 }],
    errors: 0, errorCauses: [], serviceErrors: [], nginxErrors: [], catchUpMs: 40, tables: 20, mismatched: [],
    log: { entries: 3000, answeredNotOnce: 0, refusedButThere: 0, unknownTwice: 0, unknownThere: 0 },
    cpuSeconds: {}, machineBusy: 0.9, phases: { import: 2, evening: 61 }, seconds: 130, loadBefore: 1, loadAfter: 2,
  };
  const rows = rushRows(figures);
  const headline = (start: string) => headlineOf(rows.find((row) => row.measure.startsWith(start))!.result);
  expect(headline('rush through nginx')).toMatchObject({ unit: 'req/s', better: 'higher' });
  expect(headline('rush: POST /api/entry')).toMatchObject({ values: [20, 120], unit: 'ms', better: 'lower' });
  expect(headline('rush: lag')).toMatchObject({ values: [20, 30, 30], better: 'lower' });
  expect(headline('rush: the step\'s time')).toMatchObject({ values: [130], unit: 's', better: 'lower' });
  expect(rows.find((row) => row.measure.startsWith('rush: POST /api/entry'))!.target).toBe('p99 ≤ 250 ms (met)');
  expect(rows.find((row) => row.measure.startsWith('rush: errors'))!.target).toBe('0 (met)');
  // The kept run's line is found by its measure: what changes from run to run is in the result.
  const another = rushRows({
    ...figures, catchUpMs: 900, seconds: 170, phases: { import: 3, evening: 75 },
    routes: [{ route: 'POST /api/entry', calls: 2990, p50: 25, p99: 300 }],
    evening: { ...figures.evening, lags: [1, 2], unheard: 3, calls: 50_000 },
  });
  expect(another.map((row) => row.measure)).toEqual(rows.map((row) => row.measure));
});
