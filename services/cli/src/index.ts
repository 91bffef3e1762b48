export { migrateAll, openApplication, type Application } from './application';
export { MIGRATION_SETS, describeMigrations, migrateToLatest } from './migrate';
export {
  assumedFees, describeAssumedFees, importEdition, importRows, readEditionCsv,
  type AssumedFees, type BulkImportTarget, type EditionRows, type EntryRow, type ImportProgress, type ImportResult, type ParticipantRow, type TeamRow,
} from './import-edition';
export {
  demoNextEdition, editionDataFor, ensureEditionOpen, exportYear, importYear, ImportRefused, EDITION_FILE,
  type DemoResult, type ImportRefusalCode,
} from './edition-setup';
export { prng, syntheticEdition, type SyntheticEdition, type SyntheticEditionOptions } from './synthetic-edition';
export { parseImportFlags, type ImportFlags } from './import-flags';
export { replay, readFigures, type Figures } from './replay';
export { backupDatabase, BackupFileError, type BackupOptions, type BackupSummary } from './backup';
export {
  restoreBackup, readBackupHeader, DatabaseNotEmptyError, BackupSecretMismatchError, type RestoreOptions, type RestoreSummary,
} from './restore';
export { BACKUP_FORMAT_VERSION, CorruptBackupError, UnsupportedBackupError, type BackupHeader } from './backup-format';
export {
  copyLog, copySubjectKeys, logChecksum, checksumRecord, canonicalJson, appendCalls, sameDatabase,
  COPIED_FROM, DEFAULT_COPY_BATCH, TargetNotPrefixError, SubjectKeyConflictError,
  type CopyLogOptions, type CopyLogResult, type CopyOrigin, type CopyProgress, type LogChecksum, type SubjectKeysCopy,
} from './copy-log';
export { parseCopyLogArgs, runCopyLog, type CopyLogArgs, type StoreAddress } from './copy-log-command';
export { adminTool, runAdmin, type AdminToolContext } from './admin-command';
