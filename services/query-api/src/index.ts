/** The query API's building blocks (for tests and the launcher's in-process use). */
export { buildQueryApi, type QueryApiDependencies } from './app';
export {
  ReadModelChangeListener,
  type LiveLog,
  type ReadModelChangeListenerOptions,
  type TeamChangeFeed,
  type TeamChangeListener,
} from './live';
export { LIVE_KEEP_ALIVE_MS } from './routes/team';
export { newsRoutes, newsSource, type NewsOptions } from './routes/news';
