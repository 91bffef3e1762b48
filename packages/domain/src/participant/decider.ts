/**
 * The participant aggregate (stream participant-{id}) as a decider: registration and the paid
 * flag. Email uniqueness (EMAIL_ALREADY_IN_USE) and join-code checks span aggregates and are the
 * caller's; the account (password, approval) lives with authentication, not here.
 */
import { match } from 'ts-pattern';
import { isPrivileged } from '../actors';
import { editionOfDecision, type Decider, type DecisionContext } from '../decider';
import type { Edition } from '../edition/types';
import { DomainError } from '../errors';
import type { Gender, ParticipantEvent } from '../events';
import { participantFee } from '../payment/fees';
import { requireBoolean, requireId, requireText } from '../validation';

/** The genders registration offers (spec §3: MALE 0, FEMALE 1, UNDEFINED 2). */
export const GENDERS: readonly Gender[] = ['MALE', 'FEMALE', 'UNDEFINED'];

// Deliberately loose: something@something.tld without spaces. Deliverability is proven by the
// confirmation e-mail (spec §4), not by a pattern.
const PLAUSIBLE_EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

/**
 * True when `email` (already trimmed) has a plausible address shape: local@domain.tld, no spaces,
 * one @, no empty domain labels. Source: spec §8 INVALID_EMAIL.
 */
export function isPlausibleEmail(email: string): boolean {
  return PLAUSIBLE_EMAIL.test(email);
}

/**
 * The key under which e-mail uniqueness (EMAIL_ALREADY_IN_USE) and login look-ups compare
 * addresses: trimmed and lower-cased.
 */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Register a participant into a team (spec §2 registration; captain when registering the team). */
export interface RegisterParticipant {
  type: 'RegisterParticipant';
  data: {
    participantId: number;
    teamId: number;
    fullName: string;
    email: string;
    birthYear: number;
    gender: Gender;
    isCaptain: boolean;
    newsletter: boolean;
  };
}

/** Set the participant's paid flag (spec §4 payment; §6 admin marks payment; the payment provider). */
export interface MarkPayment {
  type: 'MarkPayment';
  data: {
    participantId: number;
    isPaid: boolean;
    /** Copied into the event when given (ParticipantPaymentMarked.source). */
    source?: 'admin' | 'payment' | 'refund' | 'import';
    /** The succeeded fee order (source 'payment'), or the refunded one (source 'refund'). */
    orderId?: string;
    /**
     * With source 'admin' or 'import': whether the participant's team is a company team (the caller reads the
     * team stream), so that an administrator's mark records the fee due as the manual payment
     * (participantFee). Default false.
     */
    company?: boolean;
  };
}

/** An administrator corrects the participant's full name (spec §2 admin users tab edit modal). */
export interface RenameParticipant {
  type: 'RenameParticipant';
  data: { participantId: number; fullName: string };
}

/**
 * An administrator deletes the participant (deleting their user or their team, spec §7
 * PUT /admin/deleteentities/{user|team}), or with `byOwner` the participant erases themself
 * (the account's DeleteUser in the same append checks the password); the caller
 * erases the personal data afterwards.
 */
export interface DeleteParticipant {
  type: 'DeleteParticipant';
  data: { participantId: number; byOwner?: boolean };
}

export type ParticipantCommand = RegisterParticipant | MarkPayment | RenameParticipant | DeleteParticipant;

export interface ParticipantState {
  exists: boolean;
  participantId: number | null;
  teamId: number | null;
  /** The edition's year the participant takes part in (null before registration). */
  edition: number | null;
  /** Personal data; null before registration or once erased. */
  fullName: string | null;
  email: string | null;
  birthYear: number | null;
  gender: Gender | null;
  isCaptain: boolean;
  newsletter: boolean;
  isPaid: boolean;
  /**
   * The fee order whose success (or team fee) set the paid flag, while it stands; absent when the
   * flag is false or was set otherwise (an administrator, the importer). a full refund
   * of that order takes the flag back.
   */
  paidOrderId?: string;
  /**
   * The manual payment an administrator's standing mark recorded, EUR cents; absent when none
   *. Optional, like paidOrderId, so that states without payments read unchanged.
   */
  manualCents?: number;
  /** ISO-8601 UTC. */
  registeredAt: string | null;
  /** True once deleted (ParticipantDeleted); the personal data is erased with it. */
  deleted: boolean;
}

const initialParticipantState = (): ParticipantState => ({
  exists: false,
  participantId: null,
  teamId: null,
  edition: null,
  fullName: null,
  email: null,
  birthYear: null,
  gender: null,
  isCaptain: false,
  newsletter: false,
  isPaid: false,
  registeredAt: null,
  deleted: false,
});

function registerParticipant(
  command: RegisterParticipant,
  state: ParticipantState,
  ctx: DecisionContext,
  edition: Edition,
): ParticipantEvent[] {
  const { limits } = edition;
  const c = command.data;
  const participantId = requireId(c.participantId, 'participantId');
  const teamId = requireId(c.teamId, 'teamId');
  if (state.exists) throw new DomainError('ALREADY_EXISTS', `participant ${participantId} is already registered`);
  const fullName = requireText(c.fullName, 'fullName', { max: limits.fullNameMax, required: true });
  const email = requireText(c.email, 'email', {
    max: limits.emailMax,
    required: true,
    emptyCode: 'INVALID_EMAIL',
    typeCode: 'INVALID_EMAIL',
  });
  if (!isPlausibleEmail(email)) throw new DomainError('INVALID_EMAIL');
  const birthYear = c.birthYear;
  if (
    typeof birthYear !== 'number' ||
    !Number.isInteger(birthYear) ||
    birthYear < limits.birthYearMin ||
    birthYear > limits.birthYearMax
  ) {
    throw new DomainError('INVALID_REQUEST', `birthYear must be a year from ${limits.birthYearMin} to ${limits.birthYearMax}`);
  }
  if (!GENDERS.includes(c.gender)) throw new DomainError('INVALID_REQUEST', 'gender must be MALE, FEMALE or UNDEFINED');
  const isCaptain = requireBoolean(c.isCaptain, 'isCaptain');
  const newsletter = requireBoolean(c.newsletter, 'newsletter');
  return [
    {
      type: 'ParticipantRegistered',
      data: {
        participantId,
        teamId,
        edition: edition.year,
        fullName,
        email,
        birthYear,
        gender: c.gender,
        isCaptain,
        newsletter,
        registeredAt: ctx.now,
      },
    },
  ];
}

function markPayment(command: MarkPayment, state: ParticipantState, ctx: DecisionContext, edition: Edition): ParticipantEvent[] {
  const participantId = requireId(command.data.participantId, 'participantId');
  const isPaid = requireBoolean(command.data.isPaid, 'isPaid');
  if (!isPrivileged(ctx.actor)) throw new DomainError('FORBIDDEN', 'only an administrator or the system marks payment');
  requireLiveParticipant(state, participantId);
  if (state.isPaid === isPaid) return [];
  const { source, orderId } = command.data;
  // an administrator's mark is money verified by hand (a bank transfer): the fee due
  // when marked, and an unmark takes back what the standing mark recorded.
  const manualCents = source !== 'admin' ? 0
    : isPaid ? participantFee(state.birthYear, command.data.company === true, edition)
      : (state.manualCents ?? 0);
  // An imported paid mark stands for a fee paid in the old system, which kept no amounts: the
  // fee the participant owed is assumed, unless their birth year is unknown (then so is the fee).
  const assumedCents = source === 'import' && isPaid && state.birthYear !== null
    ? participantFee(state.birthYear, command.data.company === true, edition) : 0;
  return [{
    type: 'ParticipantPaymentMarked',
    data: {
      participantId, isPaid,
      ...(source !== undefined ? { source } : {}),
      ...(orderId !== undefined ? { orderId } : {}),
      ...(manualCents > 0 ? { manualCents } : {}),
      ...(assumedCents > 0 ? { assumedCents } : {}),
    },
  }];
}

/** A deleted participant answers exactly like one that never existed (NOT_FOUND). */
function requireLiveParticipant(state: ParticipantState, participantId: number): void {
  if (!state.exists || state.deleted) throw new DomainError('NOT_FOUND', `participant ${participantId} does not exist`);
  if (state.participantId !== participantId) {
    throw new DomainError('INVALID_REQUEST', `command for participant ${participantId} applied to participant ${String(state.participantId)}`);
  }
}

function renameParticipant(command: RenameParticipant, state: ParticipantState, ctx: DecisionContext, edition: Edition): ParticipantEvent[] {
  const participantId = requireId(command.data.participantId, 'participantId');
  if (!isPrivileged(ctx.actor)) throw new DomainError('FORBIDDEN', 'only an administrator renames participants');
  requireLiveParticipant(state, participantId);
  const fullName = requireText(command.data.fullName, 'fullName', { max: edition.limits.fullNameMax, required: true });
  if (fullName === state.fullName) return [];
  return [{ type: 'ParticipantRenamed', data: { participantId, fullName, renamedAt: ctx.now } }];
}

function deleteParticipant(command: DeleteParticipant, state: ParticipantState, ctx: DecisionContext): ParticipantEvent[] {
  const participantId = requireId(command.data.participantId, 'participantId');
  const owner = command.data.byOwner === true && ctx.actor.role === 'USER' && ctx.actor.participantId === participantId;
  if (command.data.byOwner === true ? !owner : !isPrivileged(ctx.actor)) {
    throw new DomainError('FORBIDDEN', 'only an administrator, or the participant themself, deletes a participant');
  }
  requireLiveParticipant(state, participantId);
  return [{ type: 'ParticipantDeleted', data: { participantId, teamId: state.teamId!, deletedAt: ctx.now } }];
}

function evolveParticipant(state: ParticipantState, event: ParticipantEvent): ParticipantState {
  return match(event)
    .with({ type: 'ParticipantRegistered' }, ({ data }) => ({
      ...state,
      exists: true,
      participantId: data.participantId,
      teamId: data.teamId,
      edition: data.edition,
      fullName: data.fullName,
      email: data.email,
      birthYear: data.birthYear,
      gender: data.gender,
      isCaptain: data.isCaptain,
      newsletter: data.newsletter,
      registeredAt: data.registeredAt,
    }))
    .with({ type: 'ParticipantPaymentMarked' }, ({ data }) => ({
      ...state,
      isPaid: data.isPaid,
      paidOrderId: data.isPaid && data.source === 'payment' ? data.orderId : undefined,
      // An assumed import fee is taken back by an administrator's unmark like a manual payment.
      manualCents: data.isPaid && data.source === 'admin' && data.manualCents ? data.manualCents
        : data.isPaid && data.source === 'import' && data.assumedCents ? data.assumedCents : undefined,
    }))
    .with({ type: 'ParticipantRenamed' }, ({ data }) => ({ ...state, fullName: data.fullName }))
    .with({ type: 'ParticipantDeleted' }, () => ({ ...state, deleted: true, fullName: null, email: null, birthYear: null }))
    .exhaustive();
}

/**
 * The participant decider for an edition (its limits apply).
 *
 * RegisterParticipant → [ParticipantRegistered] (registeredAt = ctx.now; name and e-mail trimmed;
 * isPaid starts false). Rules (spec §5, §9): ids positive integers (INVALID_REQUEST); full name
 * required (INVALID_REQUEST), at most limits.fullNameMax = 32 characters (VALUE_TOO_LONG); e-mail
 * required and plausible (INVALID_EMAIL), at most limits.emailMax = 264 (VALUE_TOO_LONG); birth
 * year an integer within limits.birthYearMin..birthYearMax = 1901..2023 (INVALID_REQUEST); gender
 * MALE, FEMALE or UNDEFINED (INVALID_REQUEST); isCaptain and newsletter booleans
 * (INVALID_REQUEST); already registered → ALREADY_EXISTS.
 *
 * MarkPayment → [ParticipantPaymentMarked] only when the flag changes, else [] (spec §4, §6);
 * the optional source and orderId are copied into the event. An administrator's mark (source
 * 'admin') records the money verified by hand as `manualCents`: marking paid, the fee due
 * (participantFee: the company fee when `company`, else by birth year); unmarking, the manual
 * payment the standing mark had recorded (none when the flag came from a provider's payment). An
 * imported paid mark (source 'import') records the fee assumed paid in the old system as
 * `assumedCents` (participantFee as above), none when the birth year is unknown. Only
 * ADMIN or SYSTEM (the payment callback) may mark (FORBIDDEN); unknown participant → NOT_FOUND.
 *
 * RenameParticipant → [ParticipantRenamed] (renamedAt = ctx.now, name trimmed), [] when unchanged;
 * full name required (INVALID_REQUEST), ≤ limits.fullNameMax = 32 (VALUE_TOO_LONG, spec §5 "Admin
 * participant name max 32"). DeleteParticipant → [ParticipantDeleted] carrying the team id.
 * Both ADMIN or SYSTEM only (FORBIDDEN, checked before existence); DeleteParticipant with
 * `byOwner` is the participant's own erasure: only that participant (a USER).
 *
 * Every command but RegisterParticipant on a deleted participant → NOT_FOUND, as for an unknown
 * one; RegisterParticipant with a deleted participant's id → ALREADY_EXISTS.
 */
export function createParticipantDecider(
  fixed?: Edition,
): Decider<ParticipantCommand, ParticipantEvent, ParticipantState> {
  return {
    initialState: initialParticipantState,
    decide: (command, state, ctx) =>
      match(command)
        .with({ type: 'RegisterParticipant' }, (c) => registerParticipant(c, state, ctx, editionOfDecision(fixed, ctx)))
        .with({ type: 'MarkPayment' }, (c) => markPayment(c, state, ctx, editionOfDecision(fixed, ctx)))
        .with({ type: 'RenameParticipant' }, (c) => renameParticipant(c, state, ctx, editionOfDecision(fixed, ctx)))
        .with({ type: 'DeleteParticipant' }, (c) => deleteParticipant(c, state, ctx))
        .exhaustive(),
    evolve: evolveParticipant,
  };
}

/** The participant decider of the decision's edition, the context's (see createParticipantDecider). */
export const participantDecider: Decider<ParticipantCommand, ParticipantEvent, ParticipantState> =
  createParticipantDecider();
