/**
 * The write path's public names in one place (kept for the modules and tools that import them from
 * here, e.g. the importer's bulk path): command metadata and event ids (handler/metadata.ts), the
 * repeat checks (handler/repeats.ts), the generic command handler (handler/command-handler.ts)
 * and the request fingerprints and keyed mutex (idempotency.ts). See command-handler.ts for how a
 * command is read, decided, appended, retried and followed by its after-commit hooks.
 */
export * from './idempotency';
export {
  deterministicUuid,
  eventIdFor,
  eventMetadataOf,
  foldStream,
  idOfStream,
  type CommandEventMetadata,
  type CommandMetadata,
  type CommandRequest,
} from './handler/metadata';
export { CommandRepeats, confirmOwnAppend, lastPositionOf, priorCommand } from './handler/repeats';
export {
  MAX_ATTEMPTS,
  StreamReads,
  executeCommand,
  handleCommand,
  type CommandOutcome,
  type CommandSpec,
  type DecidedEvent,
  type HandleResult,
  type StreamWrite,
} from './handler/command-handler';
