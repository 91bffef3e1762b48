/** Command handling shared by the command API and the operators' tools. */
export * from './handle';
export * from './ids';
export * from './command-service';
export { PaymentCommands } from './payments';
export type { PaymentCommandDependencies, PaymentOrderInput, PaymentOrderView, PaymentOutcomeInput, RefundInput, RefundResult } from './payments';
export * from './settings';
export { assertKeptFields, type KeptField } from './server-kept';
export { decideAboutParkedEvent, eventAtPosition, type ParkedEventDecision } from './parked-events';
export { AccountDirectory, AccountTransaction } from './accounts/directory';
export { accountMigrations } from './migrations';
export type { AccountDirectoryOptions, JoinCodeRecord, TokenKind, TokenRecord } from './accounts/directory';
export { AccountService, ADMIN_FULL_NAME } from './accounts/account-service';
export type { AccountServiceDependencies, RegistrationInput, RegistrationResult, SessionIdentity } from './accounts/account-service';
export { hashPassword, verifyPassword, newJoinCode, newToken, tokenHash } from './accounts/secrets';
