/** The projector's building blocks (for tests and benchmarks). */
export { FIRST_BATCH, reportPark, startProjector, type ProjectorBatch, type ProjectorOptions, type RunningProjector } from './projector';
export { startReplayWorker, type ReplayWorkerOptions } from './replay-worker';
export { lagCheck, startProjectorHttp, type ProjectorHttp, type ProjectorHttpLogger, type ProjectorHttpOptions } from './http';
export { progressRatio, readProjectionLag, registerProjectorMetrics, type ProjectionLag, type ProjectorMetrics, type ProjectorMetricsOptions } from './metrics';
export { registerOpsMetrics, type OpsMetric, type OpsMetricsOptions } from './ops-metrics';
