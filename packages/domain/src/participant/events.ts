/**
 * The events of stream `participant-{id}` (participant/decider.ts decides them). The union of all
 * events and their registry are in ../events.ts; personal-data fields are listed there too.
 */

export type Gender = 'MALE' | 'FEMALE' | 'UNDEFINED';

export interface ParticipantRegistered {
  type: 'ParticipantRegistered';
  data: {
    participantId: number;
    teamId: number;
    /** The edition's year (schema 2; schema 1 events are upcast to 2025): a person takes part in each edition as a new participant. */
    edition: number;
    /** Personal data (encrypted at rest). Null once erased. */
    fullName: string | null;
    /** Personal data (encrypted at rest). Null once erased. */
    email: string | null;
    /** Personal data (encrypted at rest). Null once erased. */
    birthYear: number | null;
    gender: Gender;
    isCaptain: boolean;
    newsletter: boolean;
    /** ISO-8601 UTC. */
    registeredAt: string;
  };
}
/**
 * The participant's paid flag changed (spec §4 "admin may mark paid"; a succeeded fee
 * payment marks it in the same append as its PaymentSucceeded; a team fee marks every
 * member it covers, a full refund takes the mark back).
 */
export interface ParticipantPaymentMarked {
  type: 'ParticipantPaymentMarked';
  data: {
    participantId: number;
    isPaid: boolean;
    /**
     * Who set it: 'admin' (the admin console: a payment verified by hand, e.g. a bank transfer),
     * 'payment' (a succeeded fee order, with `orderId`), 'refund' (the fee order
     * `orderId` that had paid it was refunded in full; isPaid false). Absent on the importer's
     * marks and on every mark recorded before fee payments existed. 'import': a paid mark of an imported
     * participant (who paid in the old system), whose amount the import assumes (`assumedCents`).
     */
    source?: 'admin' | 'payment' | 'refund' | 'import';
    /** The fee order (stream payment-{orderId}) that set or took back the flag; with source 'payment' or 'refund'. */
    orderId?: string;
    /**
     * Money moved by hand, EUR cents, with source 'admin' only. isPaid true: the
     * manual payment (bank transfer, spec §2/§4) the administrator verified — the participant's
     * fee due when marked (participantFee: the company fee, or 15/5 EUR by birth year) — which the
     * fundraising totals count as a fee. isPaid false: the manual payment this unmark takes back
     * (the amount of the administrator's mark it undoes), which the totals subtract. Absent when
     * no money moved by hand (a provider's payment counts through PaymentSucceeded; imported marks and
     * marks older than this field count nothing).
     */
    manualCents?: number;
    /**
     * With source 'import' and isPaid true: the fee the import assumes the participant paid in the
     * old system, EUR cents (participantFee for the edition: the company fee, else 15/5 EUR by
     * birth year; spec §9), which the fundraising totals count as a fee. Absent when the fee
     * cannot be known (no birth year): the payment's amount is unknown, and every total it feeds
     * is known to be incomplete.
     */
    assumedCents?: number;
  };
}
/** An administrator corrected the participant's name (spec §2 admin users tab; at most 32). */
export interface ParticipantRenamed {
  type: 'ParticipantRenamed';
  data: {
    participantId: number;
    /** Personal data (encrypted at rest, subject participant-{participantId}). Null once erased. */
    fullName: string | null;
    renamedAt: string;
  };
}
/**
 * The participant was deleted (an administrator deleted the user or the team). Their personal
 * data is erased in the same step (the subject key participant-{id} is destroyed: every
 * ParticipantRegistered, ParticipantRenamed and UserRegistered copy reads null from then on).
 */
export interface ParticipantDeleted {
  type: 'ParticipantDeleted';
  data: { participantId: number; teamId: number; deletedAt: string };
}
export type ParticipantEvent = ParticipantRegistered | ParticipantPaymentMarked | ParticipantRenamed | ParticipantDeleted;
