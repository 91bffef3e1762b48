/**
 * The CLI's `backup [file]` and `restore <file>` (`npm run backup`, `npm run
 * restore -- <file>`): configuration, the database the other tools use (openInfrastructure:
 * DATABASE_URL, else DATA_DIR's embedded PostgreSQL), progress bars and what the operator reads.
 * The work is backup.ts's backupDatabase and restore.ts's restoreBackup; docs/backup.md is the
 * operator's guide. A successful backup is recorded in Redis (REDIS_URL, @sinilill/messaging's
 * recordBackup), where the projector's metrics find its age for the backup alert
 * (infra/prometheus/alerts.yml).
 */
import { loadConfig } from '@sinilill/config';
import { recordBackup } from '@sinilill/messaging';
import { defaultBackupFile, parseBackupArgs, parseRestoreArgs } from './backup-format';
import { backupDatabase } from './backup';
import { openInfrastructure } from './infra';
import { progressBar } from './progress';
import { readBackupHeader, restoreBackup } from './restore';

const log = (line: string) => console.log(line);
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** `[name, rows]` lines, names padded. */
function tableLines(tables: readonly { name: string; rows: number }[]): string[] {
  const width = Math.max(...tables.map((t) => t.name.length));
  return tables.map((t) => `  ${t.name.padEnd(width)}  ${String(t.rows).padStart(10)} rows`);
}

/**
 * `backup [file]`: writes a backup to `file`, or to DATA_DIR/backups/sinilill-<UTC stamp>.dump.
 * @param args the arguments after `backup`.
 */
export async function runBackup(args: readonly string[]): Promise<void> {
  const { file: named } = parseBackupArgs(args);
  const config = loadConfig();
  const file = named ?? defaultBackupFile(config.dataDir, new Date());
  const infra = await openInfrastructure(config, { redis: 'none', log });
  try {
    const bar = progressBar();
    const summary = await backupDatabase({
      databaseUrl: infra.databaseUrl,
      file,
      emailIndexSecret: config.emailIndexSecret,
      onProgress: ({ table, done, total }) => bar.update(done, total, `backup ${table}`),
    });
    bar.stop();
    const { header } = summary;
    const rows = header.tables.reduce((sum, t) => sum + t.rows, 0);
    log(`backed up ${rows} rows of ${header.tables.length} tables, the log up to position ${header.headPosition}, ` +
      `in ${seconds(summary.milliseconds)}:`);
    for (const line of tableLines(header.tables)) log(line);
    log(`sequences: ${header.sequences.map((s) => `${s.name} ${s.lastValue}`).join(', ')}`);
    const reasons = new Map<string, string[]>();
    for (const { name, why } of header.leftOut) reasons.set(why, [...(reasons.get(why) ?? []), name]);
    log(`left out: ${[...reasons].map(([why, names]) => `${names.join(', ')} (${why})`).join('; ')}; ` +
      'the read models (rebuilt by the restore\'s replay)');
    log(`file: ${summary.file} (${megabytes(summary.bytes)}, content sha256 ${summary.sha256})`);
    log('It holds password hashes and the keys to personal data: copy it off this machine, encrypted (docs/backup.md).');
    await recordForAlerts(config.redisUrl, config.queuePrefix, {
      finishedAt: new Date().toISOString(), file: summary.file, bytes: summary.bytes, headPosition: header.headPosition,
    });
  } finally {
    await infra.stop();
  }
}

/**
 * Records the backup for the alert on the last backup's age. The file is complete whatever
 * happens here, so a failure only warns: the alert then reports the previous backup's age.
 */
async function recordForAlerts(redisUrl: string | null, prefix: string, record: Parameters<typeof recordBackup>[1]): Promise<void> {
  if (redisUrl === null) {
    log('not recorded for the backup alert: REDIS_URL is not set');
    return;
  }
  try {
    await recordBackup(redisUrl, record, prefix);
    log('recorded for the backup alert (Redis)');
  } catch (error) {
    console.warn(`warning: the backup is complete, but recording it for the backup alert failed (${String(error)}): the alert will count from the previous backup`);
  }
}

/**
 * `restore <file> [--allow-other-email-index-secret]`: loads the backup into the (empty)
 * database and rebuilds the read models.
 * @param args the arguments after `restore`.
 */
export async function runRestore(args: readonly string[]): Promise<void> {
  const { file, allowOtherEmailIndexSecret } = parseRestoreArgs(args);
  const config = loadConfig();
  // The file first: a missing or foreign file is refused before any database is started.
  const found = await readBackupHeader(file);
  log(`restoring ${file}: made ${found.createdAt}, the log up to position ${found.headPosition}, ` +
    `${found.tables.reduce((sum, t) => sum + t.rows, 0)} rows of ${found.tables.length} tables (format ${found.version})`);
  const infra = await openInfrastructure(config, { redis: 'none', log });
  const bar = progressBar();
  let loading = true;
  try {
    const summary = await restoreBackup({
      databaseUrl: infra.databaseUrl,
      file,
      emailIndexSecret: config.emailIndexSecret,
      allowOtherEmailIndexSecret,
      onProgress: ({ table, done, total }) => bar.update(done, total, `restore ${table}`),
      log: (line) => {
        // The replay draws its own bar: end the loading one first.
        if (loading && line.startsWith('rebuilding')) { bar.stop(); loading = false; }
        log(line);
      },
    });
    const { header, replay } = summary;
    const rows = summary.tables.reduce((sum, t) => sum + t.rows, 0);
    log(`restored ${rows} rows of ${summary.tables.length} tables, the log up to position ${header.headPosition}, ` +
      `in ${seconds(summary.milliseconds)}:`);
    for (const line of tableLines(summary.tables)) log(line);
    log(`sequences set: ${header.sequences.map((s) => `${s.name} ${s.lastValue}`).join(', ')}`);
    const ran = summary.migrations.flatMap((m) => m.applied.map((name) => `${m.schema}/${name}`));
    log(`migrations run after loading: ${ran.length > 0 ? ran.join(', ') : 'none (the backup was made by this version)'}`);
    log(`personal data: ${summary.erasedSubjects} erased subjects stay erased` + (summary.keysDestroyed.length > 0
      ? `; keys destroyed now because the log records their deletion: ${summary.keysDestroyed.join(', ')}` : ''));
    log(`read models: replayed ${replay.result.events} events up to position ${replay.result.position} ` +
      `in ${seconds(replay.result.milliseconds)} (${replay.eventsPerSecond} events/s)`);
    log(`figures: ${JSON.stringify(replay.after)}`);
    log(`Erasures made after ${header.createdAt} are not in this backup: apply them again now (docs/backup.md, "Erasure and old backups").`);
    log('Everyone must log in again (logins are not backed up).');
  } finally {
    if (loading) bar.stop();
    await infra.stop();
  }
}
