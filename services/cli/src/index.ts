export { migrateAll, openApplication, type Application } from './application';
export { importEdition, type ImportResult } from './import-edition';
export { replay, readFigures, type Figures } from './replay';
