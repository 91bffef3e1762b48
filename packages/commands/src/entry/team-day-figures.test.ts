/**
 * TeamDayFigures: a day is loaded once, served from memory after, refreshed in the background once
 * stale (the held figures served meanwhile), too old figures not served; this process's own
 * entries count at once and are not lost to a load that was in flight; a failed load judges
 * nothing. The loader is a plain function (the command API's is one SQL statement).
 */
import { describe, expect, test } from 'vitest';
import { TeamDayFigures, type TeamFigures } from './team-day-figures';

const DAY = '2025-04-20';

/** A loader answering `figures` (team id → km and members), counting its calls; `gate` holds a load until released. */
function loader(figures: Record<number, [number, number]>) {
  const calls: string[] = [];
  let gate: Promise<void> | null = null;
  let release = () => undefined as void;
  const current = { figures };
  return {
    calls,
    current,
    hold() {
      gate = new Promise<void>((resolve) => { release = resolve; });
    },
    release: () => release(),
    load: async (day: string): Promise<ReadonlyMap<number, TeamFigures>> => {
      calls.push(day);
      if (gate) await gate;
      if (current.figures === null) throw new Error('read models unavailable');
      return new Map(Object.entries(current.figures).map(([team, [km, members]]) => [Number(team), { hundredths: km * 100, members }]));
    },
  };
}

describe('TeamDayFigures', () => {
  test('given a day not held, when warmed, then it is loaded once and every team\'s day is answered from memory', async () => {
    const source = loader({ 1: [10, 2], 2: [6, 3], 3: [0, 4] });
    const figures = new TeamDayFigures(source.load, { now: () => 0 });
    await figures.warm(DAY);
    await figures.warm(DAY);
    expect(source.calls).toEqual([DAY]);
    // Team 3 has no km that day: it is not among the others' km per member.
    expect(figures.teamDay(1, DAY)).toEqual({ otherHundredths: 1000, members: 2, othersPerMember: [2] });
    expect(figures.teamDay(3, DAY)).toEqual({ otherHundredths: 0, members: 4, othersPerMember: [5, 2] });
    expect(figures.teamDay(9, DAY)).toBeNull();
    expect(figures.teamDay(1, '2025-04-21')).toBeNull();
  });

  test('given held figures gone stale, when warmed, then they are served at once and loaded again behind', async () => {
    let now = 0;
    const source = loader({ 1: [10, 2] });
    const figures = new TeamDayFigures(source.load, { now: () => now, refreshMs: 1000 });
    await figures.warm(DAY);
    now = 1500;
    source.current.figures = { 1: [12, 2] };
    source.hold();
    await figures.warm(DAY);
    expect(figures.teamDay(1, DAY)?.otherHundredths).toBe(1000);
    source.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(figures.teamDay(1, DAY)?.otherHundredths).toBe(1200);
    expect(source.calls).toEqual([DAY, DAY]);
  });

  test('given entries this process added, then they count at once, also across a load that was in flight', async () => {
    let now = 0;
    const source = loader({ 1: [10, 2], 2: [6, 3] });
    const figures = new TeamDayFigures(source.load, { now: () => now, refreshMs: 1000 });
    await figures.warm(DAY);
    figures.added(1, DAY, 250);
    expect(figures.teamDay(1, DAY)?.otherHundredths).toBe(1250);
    expect(figures.teamDay(2, DAY)?.othersPerMember).toEqual([6.25]);
    // A load begins, the read models do not have the next entry yet, it commits meanwhile.
    now = 2000;
    source.current.figures = { 1: [12.5, 2], 2: [6, 3] };
    source.hold();
    await figures.warm(DAY);
    figures.added(1, DAY, 100);
    source.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(figures.teamDay(1, DAY)?.otherHundredths).toBe(1350);
  });

  test('given loads that keep failing, then figures older than maxAgeMs are not served, and a failed first load judges nothing', async () => {
    let now = 0;
    const source = loader({ 1: [10, 2] });
    const figures = new TeamDayFigures(source.load, { now: () => now, refreshMs: 1000, maxAgeMs: 5000 });
    await figures.warm(DAY);
    (source.current as { figures: unknown }).figures = null;
    now = 3000;
    await figures.warm(DAY);
    expect(figures.teamDay(1, DAY)?.otherHundredths).toBe(1000);
    now = 6000;
    await figures.warm(DAY);
    expect(figures.teamDay(1, DAY)).toBeNull();
    await figures.warm('2025-04-19');
    expect(figures.teamDay(1, '2025-04-19')).toBeNull();
  });

  test('a value that is not a day is ignored', async () => {
    const source = loader({ 1: [10, 2] });
    const figures = new TeamDayFigures(source.load);
    await figures.warm('20.04.2025');
    await figures.warm(undefined);
    expect(source.calls).toEqual([]);
  });
});
