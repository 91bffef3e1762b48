/** The projector's building blocks (for tests and benchmarks). */
export { reportPark, startProjector, type ProjectorOptions, type RunningProjector } from './projector';
export { startReplayWorker, type ReplayWorkerOptions } from './replay-worker';
