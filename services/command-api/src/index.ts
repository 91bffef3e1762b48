/** The command API's building blocks (for tests). */
export { buildCommandApi, type CommandApiDependencies } from './app';
