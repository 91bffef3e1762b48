/**
 * Command handling shared by the command API and the operators' tools (re-exports only). The one
 * write path is executeCommand (execute-command.ts: load, decide, append, retry, after-commit
 * hooks) with the command metadata and event ids (metadata.ts) and the repeat checks (repeats.ts,
 * idempotency.ts); each aggregate's handlers live in their folder (team/, participant/, entry/,
 * payment/, account/, settings/, operations/, draw/, deletion/) behind the facades CommandService
 * and AccountService; bulk/ is the importer's path; migrations/ the account tables.
 */
export { canonicalJson, fingerprintKey, fingerprintOf, requestFingerprint, KeyedMutex } from './idempotency';
export {
  deterministicUuid,
  eventIdFor,
  eventMetadataOf,
  foldStream,
  idOfStream,
  type CommandEventMetadata,
  type CommandMetadata,
  type CommandRequest,
} from './metadata';
export { CommandRepeats, confirmOwnAppend, lastPositionOf, priorCommand } from './repeats';
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
} from './execute-command';
export { withAfterCommit, type AfterCommitHook, type CommittedAppend } from './after-commit';
export { PostgresIdAllocator, type IdAllocator, type IdKind } from './ids';
export * from './command-service';
export { PaymentCommands } from './payment/handlers';
export type { PaymentCommandDependencies, PaymentOrderInput, PaymentOrderView, PaymentOutcomeInput, RefundInput, RefundResult } from './payment/types';
export { SettingsCache, readSettings } from './settings/settings-cache';
export { assertKeptFields, type KeptField } from './server-kept';
export { decideAboutParkedEvent, eventAtPosition, type ParkedEventDecision } from './operations/parked-events';
export { AccountDirectory, AccountTransaction } from './account/directory';
export { accountMigrations } from './migrations';
export type { AccountDirectoryOptions, JoinCodeRecord, TokenKind, TokenRecord } from './account/directory';
export { AccountService, ADMIN_FULL_NAME } from './account/account-service';
export { REFRESH_REUSE_GRACE_SECONDS } from './account/session';
export type { AccountServiceDependencies, JoinEditionInput, JoinEditionResult, RegistrationInput, RegistrationResult, SessionIdentity } from './account/account-service';
export { isStrongPassword, MIN_PASSWORD_SCORE, type PasswordOwner } from './account/password-strength';
export { hashPassword, verifyPassword, newJoinCode, newToken, tokenHash } from './account/secrets';
export * from './bulk';
export { readEditionCatalog, storeEditionSource, type EditionSource } from './edition/catalog';
export { commitDraw, revealDraw, drawWinners, eligibleListHash, eligibleParticipants, sha256Hex, DRAW_MESSAGE_PREFIX } from './draw/handlers';
export * from './strava';
export { TeamDayFigures, type TeamDayFiguresOptions, type TeamDayLoader, type TeamFigures } from './entry/team-day-figures';
