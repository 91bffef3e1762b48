/**
 * Outgoing mail (re-exports only): the sender (mailer.ts), the account mails and the invitation of
 * a re-opened team's earlier members (account-mails.ts), the announcement mails and their
 * unsubscribe tokens (announcements.ts) and the `?lang=` links.
 */
export { smtpMailer, type Mailer, type OutgoingMail } from './mailer';
export { confirmationMail, passwordResetMail, registrationAttemptMail, returningInvitationMail } from './account-mails';
export { announcementMail, unsubscribeToken, verifyUnsubscribeToken, type AnnouncementContent } from './announcements';
export { withLang } from './links';
