/**
 * Tables paged, sorted and searched on the server (contract
 * @sinilill/contracts pages.ts) on real PostgreSQL: GET /api/admin/users, /teams, /entries, their
 * CSV downloads, and the public GET /api/stats/teams, over a synthetic edition (about 720
 * participants, 90 teams, 18 000 entries, imported in bulk) plus people and teams made here:
 * Estonian names for the collation, names holding '%', '_', '\', commas and quotes, and one
 * participant whose personal data is erased (a NULL name, which sorts last).
 *
 * Every expected page is computed here from the unpaged answers (GET /api/admin/userdata,
 * /teamdata, /entrydata, /api/stats) with the rules of the contract: the sort key (text by
 * Intl.Collator('et')), NULLs last in either order, ties by id in the same order; a search is a
 * case-insensitive substring of the contract's columns.
 */
import type {} from '@fastify/jwt'; // brings app.jwt's type (authPlugin registers the plugin)
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { importRows, syntheticEdition } from '@sinilill/cli';
import { AccountDirectory, type CommandRequest } from '@sinilill/commands';
import {
  ENTRY_SORTS,
  PAGE_SIZES,
  PUBLIC_TEAM_SORTS,
  SEARCH_MAX,
  TEAM_SORTS,
  USER_SORTS,
  type AdminEntry,
  type AdminEntriesAnswer,
  type AdminTeam,
  type AdminTeamsAnswer,
  type AdminUser,
  type AdminUsersAnswer,
  type SessionClaims,
  type StatsAnswer,
  type TeamStat,
} from '@sinilill/contracts';
import { PERSONAL_DATA_FIELDS, SCHEMA_VERSIONS, streams, type ActingUser } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection } from '@sinilill/event-store';
import { buildQueryApi } from '@sinilill/query-api';
import { projections, rebuildReadModels } from '@sinilill/read-models';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const NOW = new Date('2025-04-20T10:00:00Z');
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const ADMIN_ID = randomUUID();

/** The Estonian alphabet's order of these names (š z ž after s, before t; õ ä ö ü after w; then x). */
const ESTONIAN_ORDER = ['Saar', 'Šokk', 'Zoo', 'Žurnaal', 'Tamm', 'Vaher', 'Wõ', 'Õun', 'Ärm', 'Öö', 'Üllar', 'Xylo'];
const COLLATION_TEAM = { id: 90_001, name: 'Kollatsioon', joinCode: 'KOLLA001' };
const QUOTED_TEAM = { id: 90_002, name: 'Tartu, Tammed ja "Kased"', joinCode: 'TARTU002' };
const SPECIAL = { id: 90_201, name: 'Mari_Liis 100% Kald\\kriips' };
/** Names a search would find if '_', '%' or '\' were not escaped ('i L', '100' + more, 'dk'). */
const DECOYS = [{ id: 90_202, name: 'Mari Liis Sada' }, { id: 90_203, name: '100 Sammu Ees' }, { id: 90_204, name: 'Ladkumine Test' }];
const ERASED = { id: 90_205, name: 'Kustutatav Kaja' };

const collator = new Intl.Collator('et');
type Value = string | number | boolean | null;
/** A sort key as the client sees it: its value in a row, and whether it is text (Estonian order). */
type Key<T> = [(row: T) => Value, 'text' | 'plain'];

const USER_KEYS: Record<(typeof USER_SORTS)[number], Key<AdminUser>> = {
  full_name: [(u) => u.participant?.full_name ?? null, 'text'],
  email: [(u) => u.email, 'text'],
  team_name: [(u) => u.participant?.team?.team_name ?? null, 'text'],
  is_paid: [(u) => u.participant?.is_paid ?? null, 'plain'],
  is_approved: [(u) => u.is_approved, 'plain'],
  participant_created_at: [(u) => u.participant?.created_at ?? null, 'plain'],
  created_at: [(u) => u.created_at, 'plain'],
};
const TEAM_KEYS: Record<(typeof TEAM_SORTS)[number], Key<AdminTeam>> = {
  team_name: [(t) => t.team_name, 'text'],
  participant_count: [(t) => t.participant_count, 'plain'],
  distance: [(t) => t.distance, 'plain'],
  join_code: [(t) => t.join_code, 'text'],
  created_at: [(t) => t.created_at, 'plain'],
};
const ENTRY_KEYS: Record<(typeof ENTRY_SORTS)[number], Key<AdminEntry>> = {
  full_name: [(e) => e.participant.full_name, 'text'],
  team_name: [(e) => e.team.team_name, 'text'],
  distance: [(e) => e.distance, 'plain'],
  entry_type: [(e) => e.entry_type, 'text'],
  performed_at: [(e) => e.performed_at, 'plain'],
  created_at: [(e) => e.created_at, 'plain'],
};
const PUBLIC_KEYS: Record<(typeof PUBLIC_TEAM_SORTS)[number], Key<TeamStat>> = {
  team_name: [(t) => t.team.team_name, 'text'],
  distance: [(t) => t.distance, 'plain'],
  participants: [(t) => t.participants, 'plain'],
  blueFlowers: [(t) => t.blueFlowers, 'plain'],
};

/** The contract's order: by the key (NULLs last in either order), then by id, both in `order`. */
function sorted<T>(rows: readonly T[], [value, kind]: Key<T>, id: (row: T) => string | number, order: 'asc' | 'desc'): T[] {
  const sign = order === 'asc' ? 1 : -1;
  const compare = (x: Value, y: Value): number => {
    if (kind === 'text') return collator.compare(String(x), String(y));
    if (typeof x === 'boolean') return Number(x) - Number(y);
    if (typeof x === 'number') return x - (y as number);
    return x! < y! ? -1 : x! > y! ? 1 : 0;
  };
  const keyed = rows.map((row) => ({ row, key: value(row), id: id(row) }));
  keyed.sort((a, b) => {
    if (a.key === null || b.key === null) {
      if (a.key !== b.key) return a.key === null ? 1 : -1;
    } else {
      const c = compare(a.key, b.key);
      if (c !== 0) return sign * c;
    }
    return sign * (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  });
  return keyed.map((k) => k.row);
}

/** Text as the searches compare it: lower case, diacritics dropped ("šOKK" and "sokk" are one search). */
const fold = (text: string) => text.toLocaleLowerCase('et').normalize('NFD').replace(/\p{M}+/gu, '');

/** Whether `q` (trimmed) is a substring of one of `texts`, case and diacritics folded. */
function found(q: string, texts: readonly (string | null | undefined)[]): boolean {
  const needle = fold(q.trim());
  return texts.some((text) => fold(text ?? '').includes(needle));
}
const userTexts = (u: AdminUser) => [u.email, u.participant?.full_name, u.participant?.team?.team_name];
const teamTexts = (t: AdminTeam) => [t.team_name, t.join_code];
const entryTexts = (e: AdminEntry) => [e.participant.full_name, e.team.team_name];

/** A minimal RFC 4180 reader: fields split on commas, quoted fields with "" for a quote and any commas or line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; } else if (c === '\n') { row.push(field); rows.push(row); row = []; field = ''; } else field += c;
  }
  if (field !== '' || row.length > 0) { row.push(field); rows.push(row); }
  return rows;
}

interface Page<T> { rows: T[]; total: number; page: number; size: number }

describe('tables paged, sorted and searched on the server', () => {
  let app: TestApplication;
  let accountPool: pg.Pool;
  let queryApi: FastifyInstance;
  let sessions: TestSessions;
  let users: AdminUser[];
  let teams: AdminTeam[];
  let entries: AdminEntry[];
  let stats: StatsAnswer;
  const userOf = new Map<number, string>();

  let commandCount = 0;
  const system = (at: string): CommandRequest => {
    const id = `table-pages-${++commandCount}`;
    return { actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null }, now: new Date(at) };
  };
  const claims = (userId: string, participantId: number | null, role: 'USER' | 'ADMIN'): SessionClaims => ({
    userId, fullName: 'Ülem Admin', is_approved: true, participantId, teamId: null, role, isPaid: true,
  });
  const admin = () => sessions.bearer(queryApi, claims(ADMIN_ID, null, 'ADMIN'));
  const get = (url: string, authorization?: string) => queryApi.inject({ url, headers: authorization ? { authorization } : {} });
  const page = async <T>(url: string): Promise<Page<T>> => {
    const response = await get(url, admin());
    expect(response.statusCode, `${url}: ${response.body.slice(0, 200)}`).toBe(200);
    return response.json<Page<T>>();
  };
  /** Every row over all pages of `size`, checking each page's echo and total. */
  const allPages = async <T>(path: string, size: number): Promise<{ rows: T[]; total: number }> => {
    const rows: T[] = [];
    const join = path.includes('?') ? '&' : '?';
    for (let n = 1; ; n++) {
      const answer = await page<T>(`${path}${join}page=${n}&size=${size}`);
      expect(answer).toMatchObject({ page: n, size });
      rows.push(...answer.rows);
      if (answer.rows.length < size) {
        expect(rows).toHaveLength(answer.total);
        return { rows, total: answer.total };
      }
    }
  };

  beforeAll(async () => {
    app = await testApplication({ now: () => NOW });
    accountPool = new pg.Pool({ connectionString: app.url, max: 4 });
    const directory = new AccountDirectory({ pool: accountPool, indexSecret: 'table-pages-index-secret-0123' });
    const edition = syntheticEdition({ events: 20_000, seed: 16 });
    await importRows(edition, { store: app.store, pool: app.pool, directory, ids: app.ids, label: 'table-pages', batchEvents: 5000 });

    for (const [i, team] of [COLLATION_TEAM, QUOTED_TEAM].entries()) {
      await app.commands.registerTeam({ teamId: team.id, teamName: team.name, description: '', joinCode: team.joinCode, icon: null }, system(`2025-03-2${i}T08:00:00Z`));
    }
    // Registered in an order that is neither the names' nor their ids', so that neither explains the sort.
    const people = [
      ...ESTONIAN_ORDER.map((name, i) => ({ id: 90_101 + i, name, teamId: COLLATION_TEAM.id })),
      ...[SPECIAL, ...DECOYS, ERASED].map((p) => ({ ...p, teamId: QUOTED_TEAM.id })),
    ];
    const order = [...people].sort((a, b) => ((a.id * 7919) % 101) - ((b.id * 7919) % 101));
    for (const [i, p] of order.entries()) {
      const at = new Date(Date.UTC(2025, 2, 25, 8, i)).toISOString();
      await app.commands.registerParticipant({
        participantId: p.id, teamId: p.teamId, fullName: p.name, email: `tp${p.id}@example.ee`, birthYear: 1985, gender: 'FEMALE',
        newsletter: false, isCaptain: false,
      }, system(at));
      const userId = randomUUID();
      userOf.set(p.id, userId);
      await app.store.appendToStream(streams.user(userId), [{
        id: randomUUID(), type: 'UserRegistered', schemaVersion: SCHEMA_VERSIONS.UserRegistered,
        data: { userId, participantId: p.id, role: 'USER', email: `tp${p.id}@example.ee`, fullName: p.name, approved: true, hasPassword: true, lang: 'est', registeredAt: at },
        metadata: { actor: { userId: null, role: 'SYSTEM' }, correlationId: 'table-pages', causationId: null },
      }], { expectedRevision: 'no_stream' });
      // Two entries each; the erased participant twelve (more than a small page of rows without a name).
      for (let n = 0; n < (p.id === ERASED.id ? 12 : 2); n++) {
        const day = `2025-04-${String(9 + n).padStart(2, '0')}`;
        await app.commands.addEntry({ participantId: p.id, distance: 1.5 + n + i / 4, entryType: n % 2 === 0 ? 'RUN' : 'Kepikõnd', performedAt: day },
          system(`${day}T0${5 + (i % 4)}:00:00Z`));
      }
    }
    sessions = testSessions(app, { now: () => NOW });
    await sessions.enrol(claims(ADMIN_ID, null, 'ADMIN'), claims(userOf.get(90_101)!, 90_101, 'USER'));
    // One participant's personal data erased (docs: the vault forgets the key), then every read
    // model rebuilt from the log through a store without cached keys: the name reads NULL.
    const vault = new PersonalDataVault({ pool: app.pool });
    await vault.forget(`participant-${ERASED.id}`);
    await rebuildReadModels(app.db, withPersonalDataProtection(new PostgresEventStore({ pool: app.pool }), vault, PERSONAL_DATA_FIELDS), projections);

    queryApi = buildQueryApi({ db: app.db, now: () => NOW, readYourWritesTimeoutMs: 3000, jwtSecret: SECRET, changes: { subscribe: () => () => undefined } });
    await queryApi.ready();
    users = (await get('/api/admin/userdata', admin())).json<AdminUsersAnswer>().users;
    teams = (await get('/api/admin/teamdata', admin())).json<AdminTeamsAnswer>().teams;
    entries = (await get('/api/admin/entrydata', admin())).json<AdminEntriesAnswer>().entries;
    stats = (await get('/api/stats')).json<StatsAnswer>();
  }, 300_000);

  afterAll(async () => {
    await queryApi?.close();
    await accountPool?.end();
    await app?.close();
  });

  test('the data: a synthetic edition and the rows made here, one name erased', () => {
    expect(users.length).toBeGreaterThan(700);
    expect(teams.length).toBeGreaterThan(80);
    expect(entries.length).toBeGreaterThan(15_000);
    expect(entries.filter((e) => e.participant_id === ERASED.id).map((e) => e.participant.full_name)).toEqual(Array(12).fill(null));
    expect(entries.filter((e) => e.participant.full_name === null)).toHaveLength(12);
  });

  describe('who may read', () => {
    const adminPaths = ['/api/admin/users', '/api/admin/teams', '/api/admin/entries', '/api/admin/users.csv', '/api/admin/teams.csv', '/api/admin/entries.csv'];

    test.each(adminPaths)('%s: 401 UNAUTHORIZED without a token, 403 FORBIDDEN for a participant', async (path) => {
      const anonymous = await get(path);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({ message: 'UNAUTHORIZED' });
      const participant = await get(path, sessions.bearer(queryApi, claims(userOf.get(90_101)!, 90_101, 'USER')));
      expect(participant.statusCode).toBe(403);
      expect(participant.json()).toEqual({ message: 'FORBIDDEN' });
    });

    test('the public table needs no token', async () => {
      const response = await get('/api/stats/teams');
      expect(response.statusCode).toBe(200);
      expect(response.json<Page<TeamStat>>()).toMatchObject({ page: 1, size: 10, total: stats.teams.length });
    });
  });

  describe('paging', () => {
    test('the defaults: page 1 of 50 rows (10 in the public table), the table\'s default sort', async () => {
      const first = await page<AdminEntry>('/api/admin/entries');
      expect(first).toMatchObject({ page: 1, size: 50, total: entries.length });
      expect(first.rows).toEqual(sorted(entries, ENTRY_KEYS.created_at, (e) => e.id, 'desc').slice(0, 50));
      expect((await page<AdminUser>('/api/admin/users')).rows).toEqual(sorted(users, USER_KEYS.participant_created_at, (u) => u.id, 'desc').slice(0, 50));
      expect((await page<AdminTeam>('/api/admin/teams')).rows).toEqual(sorted(teams, TEAM_KEYS.team_name, (t) => t.id, 'asc').slice(0, 50));
      const publicPage = (await get('/api/stats/teams')).json<Page<TeamStat>>();
      expect(publicPage.rows).toEqual(sorted(stats.teams, PUBLIC_KEYS.distance, (t) => t.team.id, 'desc').slice(0, 10));
    });

    test.each(PAGE_SIZES)('pages of %i rows add up to every user once, in one order', async (size) => {
      const { rows, total } = await allPages<AdminUser>('/api/admin/users', size);
      expect(total).toBe(users.length);
      expect(rows).toEqual(sorted(users, USER_KEYS.participant_created_at, (u) => u.id, 'desc'));
    });

    test('a page past the end answers no rows and the total', async () => {
      const last = Math.ceil(teams.length / 25);
      expect((await page<AdminTeam>(`/api/admin/teams?size=25&page=${last}`)).rows).toHaveLength(teams.length - (last - 1) * 25);
      expect(await page<AdminTeam>(`/api/admin/teams?size=25&page=${last + 1}`)).toEqual({ rows: [], total: teams.length, page: last + 1, size: 25 });
      expect(await page<AdminEntry>('/api/admin/entries?page=1000000&size=100')).toEqual({ rows: [], total: entries.length, page: 1_000_000, size: 100 });
      const publicAnswer = (await get('/api/stats/teams?page=500')).json<Page<TeamStat>>();
      expect(publicAnswer).toEqual({ rows: [], total: stats.teams.length, page: 500, size: 10 });
    });
  });

  describe('sorting: every key, both orders, ties by id', () => {
    for (const order of ['asc', 'desc'] as const) {
      test.each(USER_SORTS)(`users by %s ${order}`, async (sort) => {
        const { rows } = await allPages<AdminUser>(`/api/admin/users?sort=${sort}&order=${order}`, 100);
        expect(rows).toEqual(sorted(users, USER_KEYS[sort], (u) => u.id, order));
      });

      test.each(TEAM_SORTS)(`teams by %s ${order}`, async (sort) => {
        const { rows } = await allPages<AdminTeam>(`/api/admin/teams?sort=${sort}&order=${order}`, 25);
        expect(rows).toEqual(sorted(teams, TEAM_KEYS[sort], (t) => t.id, order));
      });

      test.each(PUBLIC_TEAM_SORTS)(`the public table by %s ${order}`, async (sort) => {
        const rows: TeamStat[] = [];
        for (let n = 1; rows.length < stats.teams.length; n++) {
          const answer = (await get(`/api/stats/teams?sort=${sort}&order=${order}&size=25&page=${n}`)).json<Page<TeamStat>>();
          expect(answer.rows.length).toBeGreaterThan(0);
          rows.push(...answer.rows);
        }
        // The same rows as GET /api/stats, dailyDistance of the clock's day included.
        expect(rows).toEqual(sorted(stats.teams, PUBLIC_KEYS[sort], (t) => t.team.id, order));
      });

      // Pages near the start, deep ones (the server counts first, ≥ 5 000 rows in) in either
      // half (the far half is read from the end), the last one and one past it.
      test.each(ENTRY_SORTS)(`entries by %s ${order}`, async (sort) => {
        const expected = sorted(entries, ENTRY_KEYS[sort], (e) => e.id, order);
        const last = Math.ceil(entries.length / 100);
        for (const n of [1, 2, 60, 120, last - 1, last, last + 1]) {
          const answer = await page<AdminEntry>(`/api/admin/entries?sort=${sort}&order=${order}&size=100&page=${n}`);
          expect(answer.total).toBe(entries.length);
          expect(answer.rows.map((e) => e.id), `page ${n}`).toEqual(expected.slice((n - 1) * 100, n * 100).map((e) => e.id));
          expect(answer.rows).toEqual(expected.slice((n - 1) * 100, n * 100));
        }
      });
    }

    test('names sort in Estonian order: š z ž after s and before t; õ ä ö ü after w; then x', async () => {
      const { rows } = await allPages<AdminUser>(`/api/admin/users?q=${encodeURIComponent(COLLATION_TEAM.name)}&sort=full_name&order=asc`, 10);
      expect(rows.map((u) => u.participant?.full_name)).toEqual(ESTONIAN_ORDER);
      const reversed = await page<AdminUser>(`/api/admin/users?q=${encodeURIComponent(COLLATION_TEAM.name)}&sort=full_name&order=desc&size=25`);
      expect(reversed.rows.map((u) => u.participant?.full_name)).toEqual([...ESTONIAN_ORDER].reverse());
      // Entries by member name: two entries per name, in the same order.
      const byName = await page<AdminEntry>(`/api/admin/entries?q=${encodeURIComponent(COLLATION_TEAM.name)}&sort=full_name&order=asc&size=100`);
      expect(byName.rows.map((e) => e.participant.full_name)).toEqual(ESTONIAN_ORDER.flatMap((name) => [name, name]));
    });

    test.each(['asc', 'desc'] as const)('entries by member name %s: the erased member\'s (no name) last, across small pages', async (order) => {
      const q = encodeURIComponent(QUOTED_TEAM.name);
      // 8 named entries then 12 without a name: page 1 crosses over, page 2 starts inside the second run.
      const { rows, total } = await allPages<AdminEntry>(`/api/admin/entries?q=${q}&sort=full_name&order=${order}`, 10);
      expect(total).toBe(20);
      expect(rows).toEqual(sorted(entries.filter((e) => e.team_id === QUOTED_TEAM.id), ENTRY_KEYS.full_name, (e) => e.id, order));
      expect(rows.slice(-12).map((e) => e.participant_id)).toEqual(Array(12).fill(ERASED.id));
    });
  });

  describe('search', () => {
    const cases: [string, string][] = [
      ['Estonian letters, any case', 'šOKK'],
      ['Estonian letters in many names', 'ÕUN'],
      ['Estonian letters typed without their marks', 'sokk'],
      ['a percent sign', '100%'],
      ['an underscore', 'i_L'],
      ['a backslash', 'd\\k'],
      ['spaces around', '  Kollatsioon  '],
      ['a team name with a comma', 'Tartu, Tammed'],
      ['a join code in lower case', 'sy00000a'],
      ['nothing', 'Zzyzx'],
    ];

    test.each(cases)('users: %s (%s)', async (_what, q) => {
      const { rows, total } = await allPages<AdminUser>(`/api/admin/users?q=${encodeURIComponent(q)}`, 100);
      const expected = sorted(users.filter((u) => found(q, userTexts(u))), USER_KEYS.participant_created_at, (u) => u.id, 'desc');
      expect(total).toBe(expected.length);
      expect(rows).toEqual(expected);
    });

    test.each(cases)('teams: %s (%s)', async (_what, q) => {
      const { rows } = await allPages<AdminTeam>(`/api/admin/teams?q=${encodeURIComponent(q)}`, 100);
      expect(rows).toEqual(sorted(teams.filter((t) => found(q, teamTexts(t))), TEAM_KEYS.team_name, (t) => t.id, 'asc'));
    });

    test.each(cases)('entries: %s (%s)', async (_what, q) => {
      const expected = sorted(entries.filter((e) => found(q, entryTexts(e))), ENTRY_KEYS.created_at, (e) => e.id, 'desc');
      const first = await page<AdminEntry>(`/api/admin/entries?q=${encodeURIComponent(q)}&size=100`);
      expect(first.total).toBe(expected.length);
      expect(first.rows).toEqual(expected.slice(0, 100));
    });

    test.each(cases)('the public table: %s (%s)', async (_what, q) => {
      const answer = (await get(`/api/stats/teams?q=${encodeURIComponent(q)}&size=100`)).json<Page<TeamStat>>();
      const expected = sorted(stats.teams.filter((t) => found(q, [t.team.team_name])), PUBLIC_KEYS.distance, (t) => t.team.id, 'desc');
      expect(answer.total).toBe(expected.length);
      expect(answer.rows).toEqual(expected.slice(0, 100));
    });

    test('the special characters are taken literally, and the cases above find what they should', async () => {
      const names = async (q: string) => (await allPages<AdminUser>(`/api/admin/users?q=${encodeURIComponent(q)}`, 100)).rows.map((u) => u.participant?.full_name);
      expect(await names('100%')).toEqual([SPECIAL.name]);
      expect(await names('i_L')).toEqual([SPECIAL.name]);
      expect(await names('d\\k')).toEqual([SPECIAL.name]);
      expect(await names('šOKK')).toEqual(['Šokk']);
      expect(await names('sokk')).toEqual(['Šokk']);
      expect((await names('ÕUN')).length).toBeGreaterThan(10);
      expect(await names('Zzyzx')).toEqual([]);
      expect((await page<AdminTeam>('/api/admin/teams?q=sy00000a')).rows.map((t) => t.join_code)).toEqual(['SY00000A']);
    });
  });

  describe('refusals: 400 INVALID_REQUEST', () => {
    const bad = [
      'size=7', 'size=0', 'size=1000', 'size=ten', 'size=50.0', 'size=5e1', 'size=050', 'page=0', 'page=-1', 'page=1.5', 'page=1e3', 'page=+2',
    'page=abc', 'page=', 'page=1000001',
      'sort=bogus', 'sort=distance', 'order=up', `q=${'a'.repeat(SEARCH_MAX + 1)}`, 'foo=1', 'q=a&q=b',
    ];
    test.each(bad)('GET /api/admin/users?%s', async (query) => {
      const response = await get(`/api/admin/users?${query}`, admin());
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'INVALID_REQUEST' });
    });

    test.each([
      '/api/admin/teams?sort=full_name', '/api/admin/entries?sort=email', '/api/admin/entries?size=5',
      '/api/stats/teams?sort=full_name', '/api/stats/teams?size=11', '/api/stats/teams?page=0',
      '/api/admin/users.csv?page=1', '/api/admin/teams.csv?size=50', '/api/admin/entries.csv?sort=bogus', '/api/admin/entries.csv?order=sideways',
    ])('GET %s', async (url) => {
      const response = await get(url, admin());
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'INVALID_REQUEST' });
    });

    test('a search text of exactly the longest length is taken', async () => {
      expect((await get(`/api/admin/users?q=${'a'.repeat(SEARCH_MAX)}`, admin())).statusCode).toBe(200);
    });
  });

  describe('CSV downloads', () => {
    const csv = async (url: string) => {
      const response = await get(url, admin());
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      return { response, table: parseCsv(response.body) };
    };

    test('users: a header line, then every user in the paged order', async () => {
      const { response, table } = await csv('/api/admin/users.csv');
      expect(response.headers['content-disposition']).toBe('attachment; filename="users.csv"');
      expect(table[0]).toEqual(['id', 'email', 'full_name', 'role', 'is_approved', 'participant_id', 'is_paid', 'team_id', 'team_name', 'participant_created_at', 'created_at']);
      const { rows } = await allPages<AdminUser>('/api/admin/users', 100);
      expect(table.slice(1).map((r) => r[0])).toEqual(rows.map((u) => u.id));
      const special = table.find((r) => r[5] === String(SPECIAL.id))!;
      const user = users.find((u) => u.participant_id === SPECIAL.id)!;
      expect(special).toEqual([user.id, `tp${SPECIAL.id}@example.ee`, SPECIAL.name, 'USER', 'true', String(SPECIAL.id), 'false',
        String(QUOTED_TEAM.id), QUOTED_TEAM.name, user.participant!.created_at, user.created_at]);
      // The administrator has no participant: those fields are empty.
      expect(table.find((r) => r[0] === ADMIN_ID)?.slice(5, 10)).toEqual(['', '', '', '', '']);
    });

    test('teams: a team name with a comma and quotes is one quoted field', async () => {
      const { response, table } = await csv(`/api/admin/teams.csv?q=${encodeURIComponent('Tammed ja')}`);
      expect(response.headers['content-disposition']).toBe('attachment; filename="teams.csv"');
      expect(response.body).toContain('"Tartu, Tammed ja ""Kased"""');
      expect(table).toEqual([
        ['id', 'team_name', 'icon', 'description', 'join_code', 'participant_count', 'distance', 'created_at'],
        [String(QUOTED_TEAM.id), QUOTED_TEAM.name, '', '', QUOTED_TEAM.joinCode, '5', String(teams.find((t) => t.id === QUOTED_TEAM.id)!.distance),
          teams.find((t) => t.id === QUOTED_TEAM.id)!.created_at],
      ]);
      const all = await csv('/api/admin/teams.csv?sort=distance&order=desc');
      expect(all.table.slice(1).map((r) => Number(r[0]))).toEqual(sorted(teams, TEAM_KEYS.distance, (t) => t.id, 'desc').map((t) => t.id));
    });

    test('entries: every entry (many cursor batches), in the asked order, as many rows as the total', async () => {
      const { response, table } = await csv('/api/admin/entries.csv?sort=full_name&order=desc');
      expect(response.headers['content-disposition']).toBe('attachment; filename="entries.csv"');
      expect(table[0]).toEqual(['id', 'team_id', 'participant_id', 'full_name', 'team_name', 'distance', 'entry_type', 'performed_at', 'created_at']);
      expect(table).toHaveLength(entries.length + 1);
      const expected = sorted(entries, ENTRY_KEYS.full_name, (e) => e.id, 'desc');
      expect(table.slice(1).map((r) => Number(r[0]))).toEqual(expected.map((e) => e.id));
      const e = expected[0]!;
      expect(table[1]).toEqual([String(e.id), String(e.team_id), String(e.participant_id), e.participant.full_name, e.team.team_name,
        String(e.distance), e.entry_type, e.performed_at, e.created_at]);
      expect(table.at(-1)?.[3]).toBe(''); // the erased member's name: NULL, last
    });

    test('a search: the same rows as the paged total; none: the header line alone', async () => {
      const q = encodeURIComponent('ÕUN');
      const { table } = await csv(`/api/admin/entries.csv?q=${q}`);
      expect(table).toHaveLength((await page<AdminEntry>(`/api/admin/entries?q=${q}`)).total + 1);
      expect((await csv('/api/admin/users.csv?q=Zzyzx')).table).toEqual([
        ['id', 'email', 'full_name', 'role', 'is_approved', 'participant_id', 'is_paid', 'team_id', 'team_name', 'participant_created_at', 'created_at'],
      ]);
    });
  });

  test('the unpaged calls of spec §7 still answer every row, in their own order', async () => {
    const byId = <T extends { id: string | number }>(rows: readonly T[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    // Users: newest participant first, accounts without one last.
    const created = users.map((u) => u.participant?.created_at ?? null);
    expect(created).toEqual([...created].sort((a, b) => (a === null ? (b === null ? 0 : 1) : b === null ? -1 : b.localeCompare(a))));
    expect(byId(users)).toEqual(byId((await allPages<AdminUser>('/api/admin/users', 100)).rows));
    expect(byId(teams)).toEqual(byId((await allPages<AdminTeam>('/api/admin/teams', 100)).rows));
    expect(entries).toEqual(sorted(entries, ENTRY_KEYS.created_at, (e) => e.id, 'desc'));
    expect(stats.teams.map((t) => t.team.id)).toEqual([...stats.teams].sort((a, b) => b.distance - a.distance || a.team.id - b.team.id).map((t) => t.team.id));
    expect(stats.teams).toHaveLength(teams.length);
  });
});
