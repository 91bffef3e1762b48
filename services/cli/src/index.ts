export { migrateAll, openApplication, type Application } from './application';
export { MIGRATION_SETS, describeMigrations, migrateToLatest } from './migrate';
export { importEdition, type ImportResult } from './import-edition';
export { replay, readFigures, type Figures } from './replay';
