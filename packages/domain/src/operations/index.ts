export { parkedEventDecider, PROJECTION_NAME_PATTERN, SKIP_REASON_MAX } from './decider';
export type { ParkedEventCommand, RetryParkedEvent, SkipParkedEvent, OperationsState } from './decider';
