export { accountDecider, createAccountDecider, isUserId } from './decider';
export type {
  AccountCommand,
  AccountState,
  RegisterUser,
  ConfirmAccount,
  SetApproval,
  ChangePassword,
  RequestPasswordReset,
  CompletePasswordReset,
  EnsureAdmin,
  ResetPasswordAsAdmin,
  DeleteUser,
  JoinEdition,
} from './decider';
export { settingsDecider, DEFAULT_SETTINGS } from './settings';
export type { ChangeSettings, SettingsCommand } from './settings';
export {
  PASSWORD_MAX,
  assertValidNewPassword,
  emailComparisonForm,
  teamNameComparisonForm,
  joinCodeComparisonForm,
  teamOfJoinCode,
  assertRegistrationOpen,
} from './rules';
export type { JoinCodeFacts, Settings } from './rules';
