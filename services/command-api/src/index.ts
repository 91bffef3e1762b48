/** The command API's building blocks (for tests). */
export { buildCommandApi, DEFAULT_RATE_LIMIT, type CommandApiDependencies } from './app';
export type { RateLimitOptions } from './routes/accounts';
export { readModelLookups, type ReadModelLookups } from './read-model-lookups';
