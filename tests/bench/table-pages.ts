/**
 * The tables paged, sorted and searched on the server: how long the first page
 * of each takes. Unit: ms per request, the median of 3 after one warm-up request; target ≤ 1 000 ms
 * each ("each tab's first page in ≤ 1 s with a million entries"). No peer.
 *
 * The real query API (`buildQueryApi` of @sinilill/query-api, wired as stats-peers.ts wires it:
 * the production pool size, a clock in April 2025, a change feed that never speaks, logger off)
 * listens on 127.0.0.1 in this process over a database whose read models are already projected;
 * each request is a whole HTTP GET by fetch (authentication, the queries, serialisation, the
 * compression fetch asks for, the body read). The administrators' tables need an administrator:
 * one account (fixed id BENCH_ADMIN_ID; AdminRegistered appended to the log the first time) gets a
 * live session (tests/support/sessions.ts), so a run writes that account's stream and session rows.
 *
 * Measured (default sort, 50 rows, unless said): the users, teams and entries tabs; the entries
 * tab searched for a member's surname (the last word of the newest entry's member name: a common
 * name) and sorted by member name (Estonian order, the sort that joins the most rows); the public
 * participants table (10 rows, distance descending).
 */
import pg from 'pg';
import { PostgresIdAllocator } from '@sinilill/commands';
import type { SessionClaims } from '@sinilill/contracts';
import { PERSONAL_DATA_FIELDS } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection } from '@sinilill/event-store';
import { buildQueryApi } from '@sinilill/query-api';
import { createReadModelDb } from '@sinilill/read-models';
import { testSessions } from '../support/sessions';
import { grouped, median, progress, spread, times, verdict, type Row } from './report';

/** The ceiling for a table's first page, ms. */
export const TABLE_PAGE_TARGET_MS = 1000;

const JWT_SECRET = 'bench-jwt-secret-that-is-long-enough-for-hs256-0123456789';
/** The bench's administrator (a fixed id, so that repeated runs reuse one account). */
export const BENCH_ADMIN_ID = '6e0c7a52-1b7e-4c55-9d53-7ab1e5be0001';
const RUNS = 3;

export interface TablePageResult {
  /** What was asked: the table and its query, e.g. "admin entries, q=Tamm". */
  tab: string;
  /** The median over RUNS requests after a warm-up, ms. */
  firstPageMs: number;
  /** The requests' times, ms. */
  samples: number[];
  /** Rows on the page. */
  rows: number;
  /** The answer's total (rows matching over all pages). */
  total: number;
}

interface PageAnswer { rows: unknown[]; total: number }

/**
 * Times the first page of each table (module comment) over the projected read models of
 * `databaseUrl`. `now`: the query API's clock (default 2025-04-20T10:00Z, inside the edition).
 * @throws Error when a request is refused or the tables are empty (import and replay first).
 */
export async function measureTablePages(options: { databaseUrl: string; jwtSecret?: string; now?: Date }): Promise<TablePageResult[]> {
  const now = options.now ?? new Date('2025-04-20T10:00:00Z');
  const secret = options.jwtSecret ?? JWT_SECRET;
  // The query API's pool size in production (services/query-api/src/server.ts: createPool(…, 20)).
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 20 });
  const db = createReadModelDb(pool);
  const api = buildQueryApi({
    db, now: () => now, readYourWritesTimeoutMs: 3000, jwtSecret: secret,
    changes: { subscribe: () => () => undefined }, logger: false,
  });
  try {
    const url = await api.listen({ host: '127.0.0.1', port: 0 });
    const store = withPersonalDataProtection(new PostgresEventStore({ pool }), new PersonalDataVault({ pool }), PERSONAL_DATA_FIELDS);
    const sessions = testSessions({ pool, store, ids: new PostgresIdAllocator(pool) }, { now: () => now });
    const admin: SessionClaims = {
      userId: BENCH_ADMIN_ID, fullName: 'Bench Admin', is_approved: true, participantId: null, teamId: null, role: 'ADMIN', isPaid: false,
    };
    await sessions.enrol(admin);
    const authorization = sessions.bearer(api, admin);

    const get = async (path: string): Promise<{ ms: number; answer: PageAnswer }> => {
      const started = performance.now();
      const response = await fetch(`${url}${path}`, { headers: { authorization } });
      const text = await response.text();
      const ms = performance.now() - started;
      if (response.status !== 200) throw new Error(`table pages: GET ${path} answered ${response.status}: ${text.slice(0, 200)}`);
      return { ms, answer: JSON.parse(text) as PageAnswer };
    };

    // A common surname from the data: the last word of the newest entry's member name.
    const newest = (await get('/api/admin/entries?size=10')).answer.rows as { participant: { full_name: string | null } }[];
    const name = newest.find((e) => e.participant.full_name)?.participant.full_name;
    if (!name) throw new Error('table pages: no entries with a member name (import and replay first)');
    const surname = name.trim().split(/\s+/).at(-1)!;

    const tabs: { tab: string; path: string }[] = [
      { tab: 'admin users', path: '/api/admin/users' },
      { tab: 'admin teams', path: '/api/admin/teams' },
      { tab: 'admin entries', path: '/api/admin/entries' },
      { tab: `admin entries, q=${surname}`, path: `/api/admin/entries?q=${encodeURIComponent(surname)}` },
      { tab: 'admin entries by member name', path: '/api/admin/entries?sort=full_name&order=asc' },
      { tab: 'public teams (10 rows)', path: '/api/stats/teams' },
    ];
    const results: TablePageResult[] = [];
    for (const { tab, path } of tabs) {
      await get(path);
      const samples: number[] = [];
      let last: PageAnswer = { rows: [], total: 0 };
      for (let run = 0; run < RUNS; run++) {
        const { ms, answer } = await get(path);
        samples.push(ms);
        last = answer;
      }
      const result = { tab, firstPageMs: median(samples), samples, rows: last.rows.length, total: last.total };
      progress(`table pages: ${tab}: ${result.firstPageMs.toFixed(1)} ms (${samples.map((s) => s.toFixed(1)).join(', ')}), `
        + `${result.rows} rows of ${grouped(result.total)}`);
      results.push(result);
    }
    return results;
  } finally {
    await api.close();
    await db.destroy();
  }
}

/** One row per table for the bench's table (report.ts). */
export function tablePageRows(results: readonly TablePageResult[]): Row[] {
  return results.map((r) => ({
    measure: `HTTP: first page of ${r.tab} (${r.rows} rows of ${grouped(r.total)}; median of ${r.samples.length} after a warm-up)`,
    result: `${grouped(r.firstPageMs, 1)} ms (${spread(r.samples, 1)})`,
    ratio: `${times(r.firstPageMs, TABLE_PAGE_TARGET_MS)} limit (no peer)`,
    target: `≤ ${grouped(TABLE_PAGE_TARGET_MS)} ms (${verdict(r.firstPageMs <= TABLE_PAGE_TARGET_MS)})`,
  }));
}
