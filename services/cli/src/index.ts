export { migrateAll, openApplication, type Application } from './application';
export { MIGRATION_SETS, describeMigrations, migrateToLatest } from './migrate';
export {
  importEdition, importRows, readEditionCsv,
  type BulkImportTarget, type EditionRows, type EntryRow, type ImportProgress, type ImportResult, type ParticipantRow, type TeamRow,
} from './import-edition';
export { syntheticEdition, type SyntheticEdition, type SyntheticEditionOptions } from './synthetic-edition';
export { parseImportFlags } from './import-flags';
export { replay, readFigures, type Figures } from './replay';
