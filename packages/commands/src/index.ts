/**
 * Command handling shared by the command API and the operators' tools: the one write path
 * (handle.ts re-exports handler/*: executeCommand, handleCommand, the repeat checks, the command
 * metadata and event ids), the store's after-commit hooks, the facades CommandService and
 * AccountService over the per-aggregate handlers (handlers/*.ts), and the account tables.
 */
export * from './handle';
export { withAfterCommit, type AfterCommitHook, type CommittedAppend } from './after-commit';
export * from './ids';
export * from './command-service';
export { PaymentCommands } from './handlers/payment';
export type { PaymentCommandDependencies, PaymentOrderInput, PaymentOrderView, PaymentOutcomeInput, RefundInput, RefundResult } from './handlers/payment-types';
export * from './settings';
export { assertKeptFields, type KeptField } from './server-kept';
export { decideAboutParkedEvent, eventAtPosition, type ParkedEventDecision } from './parked-events';
export { AccountDirectory, AccountTransaction } from './accounts/directory';
export { accountMigrations } from './migrations';
export type { AccountDirectoryOptions, JoinCodeRecord, TokenKind, TokenRecord } from './accounts/directory';
export { AccountService, ADMIN_FULL_NAME } from './accounts/account-service';
export type { AccountServiceDependencies, RegistrationInput, RegistrationResult, SessionIdentity } from './accounts/account-service';
export { isStrongPassword, MIN_PASSWORD_SCORE, type PasswordOwner } from './accounts/password-strength';
export { hashPassword, verifyPassword, newJoinCode, newToken, tokenHash } from './accounts/secrets';
export * from './bulk';
export { commitDraw, revealDraw, drawWinners, eligibleListHash, eligibleParticipants, sha256Hex, DRAW_MESSAGE_PREFIX } from './draw';
