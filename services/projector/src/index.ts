/** The projector's building blocks (for tests and benchmarks). */
export { startProjector, type ProjectorOptions, type RunningProjector } from './projector';
