/**
 * The CLI's `copy-log` (`npm run copy-log -- --to-database postgres://…` or
 * `--to-kurrentdb kurrentdb://…`): copies the event log from the configured event store (or the one
 * named by `--from-database` / `--from-kurrentdb`) into another, with progress, both checksums and
 * the time taken; exits 1 when the checksums differ. The work is copy-log.ts's copyLog (and
 * copySubjectKeys); docs/event-store-engines.md is the operator's guide.
 *
 * Source, when not named: EVENT_STORE=kurrentdb → KURRENTDB_URL; else the PostgreSQL the other
 * tools use (DATABASE_URL, or DATA_DIR's embedded server: openInfrastructure).
 * A PostgreSQL target is migrated first (every schema, as restore does: a replay can then run
 * there). Subject keys (`--with-keys`, the default when the target is PostgreSQL; `--without-keys`)
 * are copied from the source's PostgreSQL — or, for a KurrentDB source, from the vault's
 * (the configured database) — unless that is the target itself. A KurrentDB target gets no keys:
 * the vault stays in PostgreSQL (DATABASE_URL) whatever the engine.
 */
import type pg from 'pg';
import { loadConfig } from '@sinilill/config';
import { createResilientPool, KurrentDbEventStore, PostgresEventStore, type EventStore } from '@sinilill/event-store';
import { copyLog, copySubjectKeys, DEFAULT_COPY_BATCH, sameDatabase, type CopyLogResult, type SubjectKeysCopy } from './copy-log';
import { openInfrastructure, type Infrastructure } from './infra';
import { describeMigrations, migrateToLatest } from './migrate';
import { progressBar } from './progress';

/** An event store named on the command line. */
export type StoreAddress = { engine: 'postgres'; url: string } | { engine: 'kurrentdb'; url: string };

/** The arguments of `copy-log`. */
export interface CopyLogArgs {
  to: StoreAddress;
  /** null: the configured event store. */
  from: StoreAddress | null;
  batch: number;
  /** null: the default (copy when the target is PostgreSQL). */
  withKeys: boolean | null;
  perStream: boolean;
}

const USAGE = 'usage: npm run copy-log -- (--to-database <postgres-url> | --to-kurrentdb <kurrentdb-url>) ' +
  '[--from-database <postgres-url> | --from-kurrentdb <kurrentdb-url>] [--with-keys | --without-keys] [--batch <events>] [--per-stream]';

/**
 * Parses the arguments after `copy-log` (`--flag value` or `--flag=value`).
 * @throws Error with the usage line when a target is missing or two are named, a flag is unknown,
 *   a value is missing, or --batch is not a positive integer.
 */
export function parseCopyLogArgs(args: readonly string[]): CopyLogArgs {
  const values = new Map<string, string>();
  const switches = new Set<string>();
  const fail = (why: string): never => { throw new Error(`${USAGE} (${why})`); };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (['--with-keys', '--without-keys', '--per-stream'].includes(flag)) {
      if (inline !== undefined) fail(`${flag} takes no value`);
      switches.add(flag);
    } else if (['--to-database', '--to-kurrentdb', '--from-database', '--from-kurrentdb', '--batch'].includes(flag)) {
      const value = inline ?? args[++i];
      if (value === undefined || value === '' || value.startsWith('--')) fail(`${flag} needs a value`);
      if (values.has(flag)) fail(`${flag} given twice`);
      values.set(flag, value!);
    } else {
      fail(`unknown argument ${arg}`);
    }
  }
  const address = (database: string, kurrentdb: string, required: boolean): StoreAddress | null => {
    const pgUrl = values.get(database);
    const kdbUrl = values.get(kurrentdb);
    if (pgUrl !== undefined && kdbUrl !== undefined) fail(`${database} and ${kurrentdb} exclude each other`);
    if (pgUrl !== undefined) return { engine: 'postgres', url: pgUrl };
    if (kdbUrl !== undefined) return { engine: 'kurrentdb', url: kdbUrl };
    if (required) fail('no target');
    return null;
  };
  const to = address('--to-database', '--to-kurrentdb', true)!;
  const from = address('--from-database', '--from-kurrentdb', false);
  if (switches.has('--with-keys') && switches.has('--without-keys')) fail('--with-keys and --without-keys exclude each other');
  if (switches.has('--with-keys') && to.engine !== 'postgres') fail('--with-keys needs a PostgreSQL target: the vault stays in PostgreSQL');
  const batchText = values.get('--batch');
  const batch = batchText === undefined ? DEFAULT_COPY_BATCH : Number(batchText);
  if (!Number.isSafeInteger(batch) || batch < 1 || batch > 100_000) fail(`--batch must be an integer from 1 to 100000, not ${batchText}`);
  const withKeys = switches.has('--with-keys') ? true : switches.has('--without-keys') ? false : null;
  return { to, from, batch, withKeys, perStream: switches.has('--per-stream') };
}

/** The URL without its password, for output. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparsable URL)';
  }
}

/** An open store, its PostgreSQL pool when it has one, and how to close both. */
interface OpenStore {
  address: StoreAddress;
  store: EventStore;
  pool: pg.Pool | null;
  close(): Promise<void>;
}

function openStore(address: StoreAddress): OpenStore {
  if (address.engine === 'kurrentdb') {
    const store = new KurrentDbEventStore({ connectionString: address.url });
    return { address, store, pool: null, close: () => store.close() };
  }
  const pool = createResilientPool({ connectionString: address.url, max: 4 });
  const store = new PostgresEventStore({ pool });
  return { address, store, pool, close: async () => { await store.close(); await pool.end(); } };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** What the operator reads after a copy: counts, rate, both checksums, the verdict. */
export function copyLogLines(result: CopyLogResult, keys: SubjectKeysCopy | null): string[] {
  const rate = result.copyMs > 0 ? Math.round(result.copied / (result.copyMs / 1000)) : 0;
  const lines = [
    `copied ${result.copied} events in ${result.appends} appends (${result.alreadyThere} already in the target) ` +
      `in ${seconds(result.copyMs)} (${rate} events/s); checksums read in ${seconds(result.checksumMs)}`,
    `source checksum: sha256 ${result.source.sha256} over ${result.source.events} events (up to position ${result.source.lastPosition})`,
    `target checksum: sha256 ${result.target.sha256} over ${result.target.events} events`,
  ];
  if (keys) {
    lines.push(`subject keys: ${keys.subjects} in the source, ${keys.inserted} copied, ${keys.erasedNow} erased in the target now` +
      (keys.erasedOnlyInTarget.length > 0 ? `; ${keys.erasedOnlyInTarget.length} erased only in the target stay erased` : ''));
  }
  if (result.sourceGrew) lines.push('warning: the source has events past those copied — writers were not stopped; stop them and run copy-log again to copy the rest');
  lines.push(result.match ? 'checksums match' : 'CHECKSUMS DIFFER: the target is not a copy of the source');
  return lines;
}

/**
 * `copy-log`: see the module docs.
 * @param args the arguments after `copy-log`.
 * @throws Error (exit 1) on a checksum mismatch, a refused target (TargetNotPrefixError), a key
 *   conflict, or a source and target that are one database.
 */
export async function runCopyLog(args: readonly string[]): Promise<void> {
  const log = (line: string) => console.log(line);
  const started = performance.now();
  const options = parseCopyLogArgs(args);
  const config = loadConfig();
  const fromConfig: StoreAddress | null = options.from ?? (config.eventStore.engine === 'kurrentdb' && config.eventStore.kurrentdbUrl
    ? { engine: 'kurrentdb', url: config.eventStore.kurrentdbUrl } : null);
  const wantKeys = options.to.engine === 'postgres' && options.withKeys !== false;
  // The configured PostgreSQL is needed for a configured PostgreSQL source, or as the vault of a KurrentDB source.
  const needsConfigured = fromConfig === null || (wantKeys && fromConfig.engine === 'kurrentdb');
  let infra: Infrastructure | null = null;
  const opened: OpenStore[] = [];
  let keysPool: pg.Pool | null = null;
  try {
    if (needsConfigured) infra = await openInfrastructure(config, { redis: 'none', log });
    const sourceAddress: StoreAddress = fromConfig ?? { engine: 'postgres', url: infra!.databaseUrl };
    const source = openStore(sourceAddress);
    opened.push(source);
    const target = openStore(options.to);
    opened.push(target);
    log(`copying the event log from ${sourceAddress.engine} ${redactUrl(sourceAddress.url)} to ${options.to.engine} ${redactUrl(options.to.url)}`);
    if (source.pool && target.pool && await sameDatabase(source.pool, target.pool)) {
      throw new Error('the source and the target are the same database');
    }
    if (target.pool) {
      for (const line of describeMigrations(await migrateToLatest(target.pool))) log(`target: ${line}`);
    }

    let keys: SubjectKeysCopy | null = null;
    if (wantKeys && target.pool) {
      keysPool = source.pool ?? createResilientPool({ connectionString: infra!.databaseUrl, max: 2 });
      if (await sameDatabase(keysPool, target.pool)) {
        log('subject keys: the target is the vault\'s own database, nothing to copy');
      } else {
        keys = await copySubjectKeys(keysPool, target.pool);
      }
    } else if (options.to.engine === 'kurrentdb') {
      log('subject keys: not copied (the vault stays in PostgreSQL, DATABASE_URL, whatever the engine)');
    }

    const bar = progressBar();
    const result = await copyLog({
      source: source.store,
      target: target.store,
      batch: options.batch,
      perStream: options.perStream,
      onProgress: ({ phase, position, head }) => bar.update(Math.min(position, head), head, phase),
    });
    bar.stop();
    for (const line of copyLogLines(result, keys)) log(line);
    log(`elapsed: ${seconds(performance.now() - started)} in all`);
    if (!result.match) throw new Error('copy-log: the checksums differ');
  } finally {
    if (keysPool && keysPool !== opened[0]?.pool) await keysPool.end();
    for (const store of opened.reverse()) await store.close();
    await infra?.stop();
  }
}
