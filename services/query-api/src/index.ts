/** The query API's building blocks (for tests and the launcher's in-process use). */
export { buildQueryApi, type QueryApiDependencies } from './app';
