/**
 * The evening itself, played by the clients (clients.ts) for `seconds` seconds:
 *
 * - **Writers**: every participant adds `entriesEach` entries at moments drawn uniformly over the
 *   evening (open loop: an entry is sent at its moment whatever the others are doing; one
 *   person's entries one after another, as one form sends them), each POST /api/entry with an
 *   Idempotency-Key of its own, a distance of 0.50–15.00 km, a preset type and a day of April.
 *   After each answer the writer's team page does what the web client does after an add
 *   (use-team-data.ts refresh(position)): GET /api/team/{id}, …/participants and …/entries with
 *   `x-min-position` the answer's position, side by side. That the new entry is in the entries
 *   answer, and that no read-your-writes wait ran out (`x-read-your-writes: timeout`), is checked.
 * - **Readers** (people.ts: the first members of each team) keep their team page open: its live
 *   stream (GET /api/team/{id}/live) for the whole evening; every `refreshSeconds` s (from a
 *   moment of their own) they reload the team page (GET /api/settings, /api/editions,
 *   /api/team/{id}, …/participants, …/entries, side by side as the page loads them), and half a
 *   period later the home page (GET /api/stats, /api/settings, /api/editions). And as the page
 *   does on each `change` event of its stream (use-team-live.ts): the three team reads again with
 *   `x-min-position` the change's position (one at a time; a change heard meanwhile is read
 *   after it).
 *
 * Measured: every call's time by route (Recorder); the lag of each entry from its POST's answer
 * to the first `change` event at or past its position on a live stream of its team (negative
 * lags, a change heard before the answer arrived, count as 0); the time from the POST's answer
 * until its writer's three reads answered (read-your-writes); the nginx cache's verdict on GET
 * /api/stats (X-Cache-Status); this process's event-loop delay (the load generator's own
 * lateness, which every time above includes).
 */
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { prng } from '@sinilill/cli';
import { bodyText, type Answer, type HeardChange, type Recorder, type RushClient } from './clients';
import { distanceKm, PRESET_TYPES, type RushPerson } from './people';

export interface EveningPlan {
  seconds: number;
  entriesEach: number;
  refreshSeconds: number;
  /** After the evening, how long to wait for the last entries' changes on the live streams, ms. */
  drainMs: number;
  seed?: number;
}

export interface EveningFigures {
  /** The evening's wall time, from its start until its last call answered, s. */
  seconds: number;
  /** Calls made in the evening (the live streams' openings not counted). */
  calls: number;
  /** POST /api/entry answered 200. */
  entriesAdded: number;
  /**
   * Every POST /api/entry's Idempotency-Key by what its writer learned: `added` (200), `refused`
   * (4xx: nothing appended), `unknown` (5xx or no answer: appended or not).
   */
  keys: Map<string, 'added' | 'refused' | 'unknown'>;
  /** Append answered → first change on a live stream of the team, ms, ascending. */
  lags: number[];
  /** Entries whose change no live stream of their team announced. */
  unheard: number;
  /** POST answered → the writer's three reads answered, ms, ascending. */
  readYourWrites: number[];
  /** X-Cache-Status of the GET /api/stats answers 200 (HIT, MISS, BYPASS …). */
  statsCache: Record<string, number>;
  /** The load generator's event-loop delay, p99 and max, ms. */
  loopDelay: { p99: number; max: number };
  /** Live streams that closed before the evening ended. */
  streamsDropped: number;
}

const sleepUntil = (at: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));

/** A written entry waiting to be heard on its team's streams. */
interface Written { teamId: number; position: number; at: number }

/**
 * Plays the evening with `clients` (logged in; index i is `people[i]`); the readers' streams are
 * opened here, before the evening starts, and closed after the drain.
 * @throws Error when fewer than all readers' streams open (the figures would not be the evening's).
 */
export async function playEvening(people: readonly RushPerson[], clients: readonly RushClient[], recorder: Recorder, plan: EveningPlan): Promise<EveningFigures> {
  const random = prng(plan.seed ?? 430);
  const heard = new Map<number, HeardChange[]>();
  const streams = new AbortController();
  const running = { evening: true };
  const refreshes: Promise<unknown>[] = [];

  /** The team page's three reads, side by side; the answers. */
  const teamReads = (client: RushClient, teamId: number, minPosition: number | undefined, entryId?: number) => {
    const stale = (answer: Answer) => (answer.headers['x-read-your-writes'] === 'timeout' ? 'read-your-writes wait ran out (200 with older data)' : null);
    const inEntries = (answer: Answer) => {
      const staleness = stale(answer);
      if (staleness || entryId === undefined) return staleness;
      const entries = JSON.parse(bodyText(answer)) as { id: number }[];
      return entries.some((entry) => entry.id === entryId) ? null : 'the writer\'s new entry is missing from its answer';
    };
    const options = minPosition === undefined ? {} : { minPosition };
    return Promise.all([
      client.call('GET /api/team/{id}', 'GET', `/api/team/${teamId}`, { ...options, isError: stale }),
      client.call('GET /api/team/{id}/participants', 'GET', `/api/team/${teamId}/participants`, { ...options, isError: stale }),
      client.call('GET /api/team/{id}/entries', 'GET', `/api/team/${teamId}/entries`, { ...options, isError: inEntries }),
    ]);
  };

  // The readers' streams, open before the evening starts.
  const readerState = new Map<number, { requested: number; reading: boolean; again: boolean }>();
  const opened = await Promise.all(people.map(async (person, i) => {
    if (!person.reader) return null;
    const client = clients[i]!;
    const state = { requested: 0, reading: false, again: false };
    readerState.set(i, state);
    const read = async (): Promise<void> => {
      state.reading = true;
      do {
        state.again = false;
        await teamReads(client, person.teamId, state.requested);
      } while (state.again && running.evening);
      state.reading = false;
    };
    return client.follow(person.teamId, streams.signal, (change) => {
      let list = heard.get(person.teamId);
      if (!list) heard.set(person.teamId, (list = []));
      list.push(change);
      if (!running.evening || change.position <= state.requested) return;
      state.requested = change.position;
      if (state.reading) state.again = true;
      else refreshes.push(read());
    });
  }));
  const streamsOpened = opened.filter((stream) => stream !== null);
  const failedToOpen = streamsOpened.filter((stream) => !stream.opened).length;
  if (failedToOpen > 0) {
    streams.abort();
    throw new Error(`rush: ${failedToOpen} of ${streamsOpened.length} live streams did not open: ${[...recorder.errors.keys()].join('; ')}`);
  }
  let streamsDropped = 0;
  const endings = streamsOpened.map((stream) => stream.ended.then((early) => { if (early) streamsDropped += 1; }));

  const callsBefore = [...recorder.times.values()].reduce((sum, list) => sum + list.length, 0);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const start = performance.now() + 100;
  const end = start + plan.seconds * 1000;
  const written: Written[] = [];
  const readYourWrites: number[] = [];
  const statsCache: Record<string, number> = {};
  let entriesAdded = 0;
  const keys = new Map<string, 'added' | 'refused' | 'unknown'>();

  const writers = people.map(async (person, i) => {
    const client = clients[i]!;
    const moments = Array.from({ length: plan.entriesEach }, () => start + random() * plan.seconds * 1000).sort((a, b) => a - b);
    const days = moments.map(() => `2025-04-${String(1 + Math.floor(random() * 30)).padStart(2, '0')}`);
    const distances = moments.map(() => distanceKm(random, 0.5, 15));
    const types = moments.map(() => PRESET_TYPES[Math.floor(random() * PRESET_TYPES.length)]!);
    for (const [k, moment] of moments.entries()) {
      await sleepUntil(moment);
      const key = randomUUID();
      const answer = await client.call('POST /api/entry', 'POST', '/api/entry', {
        body: { distance: distances[k], entry_type: types[k], performed_at: days[k] }, idempotencyKey: key,
      });
      keys.set(key, answer.status === 200 ? 'added' : answer.status >= 400 && answer.status < 500 ? 'refused' : 'unknown');
      if (answer.status !== 200) continue;
      const at = performance.now();
      const { entry, position } = JSON.parse(bodyText(answer)) as { entry: { id: number }; position: number };
      entriesAdded += 1;
      written.push({ teamId: person.teamId, position, at });
      await teamReads(client, person.teamId, position, entry.id);
      readYourWrites.push(performance.now() - at);
    }
  });

  const readers = people.flatMap((person, i) => {
    if (!person.reader) return [];
    const client = clients[i]!;
    const period = plan.refreshSeconds * 1000;
    const phase = random() * period;
    const teamPage = async () => {
      for (let at = start + phase; at < end; at += period) {
        await sleepUntil(at);
        await Promise.all([
          client.call('GET /api/settings', 'GET', '/api/settings'),
          client.call('GET /api/editions', 'GET', '/api/editions'),
          teamReads(client, person.teamId, undefined),
        ]);
      }
    };
    const homePage = async () => {
      for (let at = start + phase + period / 2; at < end; at += period) {
        await sleepUntil(at);
        const [stats] = await Promise.all([
          client.call('GET /api/stats', 'GET', '/api/stats'),
          client.call('GET /api/settings', 'GET', '/api/settings'),
          client.call('GET /api/editions', 'GET', '/api/editions'),
        ]);
        if (stats.status === 200) {
          const cache = String(stats.headers['x-cache-status'] ?? 'none');
          statsCache[cache] = (statsCache[cache] ?? 0) + 1;
        }
      }
    };
    return [teamPage(), homePage()];
  });

  await Promise.all([...writers, ...readers]);
  running.evening = false;
  await Promise.all(refreshes);
  const finished = performance.now();
  loop.disable();

  // The last entries' changes: wait for them on the streams (bounded), then close the streams.
  const firstHeard = (entry: Written): number | null => {
    let best: number | null = null;
    for (const change of heard.get(entry.teamId) ?? []) {
      if (change.position >= entry.position && (best === null || change.at < best)) best = change.at;
    }
    return best;
  };
  for (const drainUntil = performance.now() + plan.drainMs; performance.now() < drainUntil && written.some((entry) => firstHeard(entry) === null);) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const droppedDuringEvening = streamsDropped;
  streams.abort();
  await Promise.all(endings);

  const lags: number[] = [];
  let unheard = 0;
  for (const entry of written) {
    const at = firstHeard(entry);
    if (at === null) unheard += 1;
    else lags.push(Math.max(0, at - entry.at));
  }
  if (unheard > 0) recorder.error(`${unheard} added entries never announced on a live stream of their team (waited ${plan.drainMs} ms after the evening)`);
  if (droppedDuringEvening > 0) recorder.error(`${droppedDuringEvening} live streams closed during the evening`);
  const calls = [...recorder.times.values()].reduce((sum, list) => sum + list.length, 0) - callsBefore;
  return {
    seconds: (finished - start) / 1000,
    calls,
    entriesAdded,
    keys,
    lags: lags.sort((a, b) => a - b),
    unheard,
    readYourWrites: readYourWrites.sort((a, b) => a - b),
    statsCache,
    loopDelay: { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
    streamsDropped: droppedDuringEvening,
  };
}
