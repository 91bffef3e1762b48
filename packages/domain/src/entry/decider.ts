/**
 * The entry aggregate (stream entry-{id}) as a decider: one logged distance of one participant of
 * one team. The caller looks up the participant's team (participantTeamId) before deciding, since
 * that fact lives in another stream.
 */
import { match } from 'ts-pattern';
import { isPrivileged, mayActForTeam } from '../actors';
import { isEntryWindowOpen, isPerformedWithinEdition } from '../dates';
import { editionOfDecision, type Decider, type DecisionContext } from '../decider';
import { hasAtMostTwoDecimals } from '../distance';
import type { Edition } from '../edition/types';
import { DomainError } from '../errors';
import { ACTIVITY_FILE_FORMATS, type EntryAdded, type EntryDeleted, type EntryEdited, type EntryEvent, type EntryFlagged, type EntryFlagReason, type EntrySource } from '../events';
import { moderationReasons, type ModeratedEntry, type TeamDay } from './moderation';
import { requireId, requireText } from '../validation';

/**
 * Largest distance one entry may carry, km. A product rule, not the spec's: it stops a slip of the
 * finger (10000 for 10.000) from putting a team five laps ahead; 1000 km is beyond any honest day
 * of the activities offered, cycling included. Admins correct outliers by editing.
 */
export const MAX_ENTRY_DISTANCE_KM = 1000;

/** Longest entry type, in characters (preset key or the free text typed under Other). */
export const ENTRY_TYPE_MAX = 64;

/** Log a distance (spec §2 add-entry modal, §7 POST /entry). */
export interface AddEntry {
  type: 'AddEntry';
  data: {
    entryId: number;
    teamId: number;
    participantId: number;
    /** The team the participant belongs to, looked up by the caller; null if no such participant. */
    participantTeamId: number | null;
    /** km, 0.01..1000, at most two decimals. */
    distance: number;
    /** A preset ActivityType key, or free text (the "Other" choice). */
    entryType: string;
    /** YYYY-MM-DD, local (Europe/Tallinn), within the edition. */
    performedAt: string;
    /** Typed in (the default) or read from an activity file. */
    source?: EntrySource;
    /**
     * The participant's other live entries (at least those of performedAt), read by the caller for
     * the moderation rules; absent = none.
     */
    sameDay?: readonly ModeratedEntry[];
    /** The team's day, read by the caller for TEAM_DAY_OUTLIER; absent = that rule not applied. */
    teamDay?: TeamDay;
  };
}

/** Change an entry (spec §2 edit modal, §7 PUT /entry/{id}/edit). The team cannot change. */
export interface EditEntry {
  type: 'EditEntry';
  data: {
    entryId: number;
    participantId: number;
    participantTeamId: number | null;
    /** km, 0..1000, at most two decimals (spec §5: edit allows 0). */
    distance: number;
    entryType: string;
    performedAt: string;
    /** As AddEntry's: the participant's other live entries, for the moderation rules. */
    sameDay?: readonly ModeratedEntry[];
    /** As AddEntry's. */
    teamDay?: TeamDay;
  };
}

/**
 * An administrator's decision on a flagged entry (POST /api/admin/review).
 * `note`: free text, trimmed, at most REVIEW_NOTE_MAX characters, may be empty.
 */
export interface ReviewEntry {
  type: 'ReviewEntry';
  data: { entryId: number; decision: 'approve' | 'reject'; note: string };
}

/** Longest note of a review decision, in characters. */
export const REVIEW_NOTE_MAX = 500;

/** Delete an entry (spec §7 PUT /entry/delete, admin deleteentities). */
export interface DeleteEntry {
  type: 'DeleteEntry';
  data: { entryId: number };
}

export type EntryCommand = AddEntry | EditEntry | DeleteEntry | ReviewEntry;

export type EntryStatus = 'none' | 'active' | 'deleted';

/**
 * Where an entry stands in moderation: never flagged, flagged and awaiting a
 * decision (it counts), approved (counts), rejected (counts no more; final).
 */
export type EntryReviewStatus = 'none' | 'flagged' | 'approved' | 'rejected';

export interface EntryState {
  status: EntryStatus;
  entryId: number | null;
  teamId: number | null;
  participantId: number | null;
  /** km. */
  distance: number | null;
  entryType: string | null;
  /** YYYY-MM-DD. */
  performedAt: string | null;
  /** ISO-8601 UTC. */
  createdAt: string | null;
  review: EntryReviewStatus;
  /** The reasons of the latest flag (empty if never flagged). */
  reasons: EntryFlagReason[];
}

const initialEntryState = (): EntryState => ({
  status: 'none',
  entryId: null,
  teamId: null,
  participantId: null,
  distance: null,
  entryType: null,
  performedAt: null,
  createdAt: null,
  review: 'none',
  reasons: [],
});

/** The switch and the deadline bind everyone but ADMIN and SYSTEM (spec §4). */
function assertEntriesOpen(ctx: DecisionContext, edition: Edition): void {
  if (isPrivileged(ctx.actor)) return;
  if (!ctx.entryInsertionEnabled) throw new DomainError('ENTRY_INSERTION_DISABLED');
  if (!isEntryWindowOpen(ctx.now, edition)) throw new DomainError('ENTRY_DEADLINE_PASSED');
}

function assertMayActForTeam(ctx: DecisionContext, teamId: number | null): void {
  if (!mayActForTeam(ctx.actor, teamId)) throw new DomainError('FORBIDDEN', `not allowed to change entries of team ${String(teamId)}`);
}

function assertParticipantInTeam(participantTeamId: number | null, teamId: number | null): void {
  if (participantTeamId === null) throw new DomainError('NOT_FOUND', 'no such participant');
  if (participantTeamId !== teamId) throw new DomainError('PARTICIPANT_NOT_IN_TEAM');
}

function validDistance(value: unknown, min: number): number {
  if (!hasAtMostTwoDecimals(value) || value < min || value > MAX_ENTRY_DISTANCE_KM) {
    throw new DomainError('INVALID_DISTANCE', `distance must be a number of km from ${min} to ${MAX_ENTRY_DISTANCE_KM} with at most two decimals`);
  }
  return value + 0;
}

function validEntryType(value: unknown): string {
  return requireText(value, 'entryType', {
    max: ENTRY_TYPE_MAX,
    required: true,
    emptyCode: 'INVALID_ENTRY_TYPE',
    typeCode: 'INVALID_ENTRY_TYPE',
  });
}

function validPerformedAt(value: unknown, edition: Edition): string {
  if (typeof value !== 'string' || !isPerformedWithinEdition(value, edition)) throw new DomainError('INVALID_PERFORMED_AT');
  return value;
}

const SHA256 = /^[0-9a-f]{64}$/;

function validSource(value: EntrySource | undefined): EntrySource {
  if (value === undefined || value.kind === 'manual') return { kind: 'manual' };
  if (value.kind === 'file' && (ACTIVITY_FILE_FORMATS as readonly string[]).includes(value.format) && SHA256.test(value.sha256)) {
    return { kind: 'file', format: value.format, sha256: value.sha256 };
  }
  if (value.kind === 'strava' && Number.isSafeInteger(value.activityId) && value.activityId > 0) return { kind: 'strava', activityId: value.activityId };
  throw new DomainError('INVALID_REQUEST', 'source must be manual, a file with its format and SHA-256, or a Strava activity id');
}

function addEntry(command: AddEntry, state: EntryState, ctx: DecisionContext, edition: Edition): EntryEvent[] {
  const c = command.data;
  const entryId = requireId(c.entryId, 'entryId');
  const teamId = requireId(c.teamId, 'teamId');
  const participantId = requireId(c.participantId, 'participantId');
  assertMayActForTeam(ctx, teamId);
  assertEntriesOpen(ctx, edition);
  if (state.status !== 'none') throw new DomainError('ALREADY_EXISTS', `entry ${entryId} exists already`);
  assertParticipantInTeam(c.participantTeamId, teamId);
  const event: EntryAdded = {
    type: 'EntryAdded',
    data: {
      entryId,
      teamId,
      participantId,
      distance: validDistance(c.distance, 0.01),
      entryType: validEntryType(c.entryType),
      performedAt: validPerformedAt(c.performedAt, edition),
      createdAt: ctx.now,
      source: validSource(c.source),
    },
  };
  return [event, ...flagOf(event.data, c.sameDay, ctx, edition, c.teamDay)];
}

/**
 * EntryFlagged for an added or edited entry that breaks a moderation rule (moderation.ts), else
 * nothing. Entries by ADMIN and SYSTEM (corrections, the importer) are not moderated.
 */
function flagOf(
  entry: { entryId: number; teamId: number; participantId: number; distance: number; entryType: string; performedAt: string },
  sameDay: readonly ModeratedEntry[] | undefined,
  ctx: DecisionContext,
  edition: Edition,
  teamDay?: TeamDay,
): EntryFlagged[] {
  if (isPrivileged(ctx.actor)) return [];
  const reasons = moderationReasons(edition.moderation, entry, sameDay ?? [], teamDay);
  if (reasons.length === 0) return [];
  const { entryId, teamId, participantId } = entry;
  return [{ type: 'EntryFlagged', data: { entryId, teamId, participantId, reasons, flaggedAt: ctx.now } }];
}

function requireActive(state: EntryState, entryId: number): { teamId: number; participantId: number } {
  if (state.status !== 'active' || state.teamId === null || state.participantId === null) {
    throw new DomainError('NOT_FOUND', `entry ${entryId} does not exist`);
  }
  if (state.entryId !== entryId) throw new DomainError('INVALID_REQUEST', `command for entry ${entryId} applied to entry ${String(state.entryId)}`);
  return { teamId: state.teamId, participantId: state.participantId };
}

function editEntry(command: EditEntry, state: EntryState, ctx: DecisionContext, edition: Edition): EntryEvent[] {
  const c = command.data;
  const entryId = requireId(c.entryId, 'entryId');
  const participantId = requireId(c.participantId, 'participantId');
  const { teamId } = requireActive(state, entryId);
  assertMayActForTeam(ctx, teamId);
  // A rejection is final: the entry can only be deleted, never changed back into the totals.
  if (state.review === 'rejected') throw new DomainError('FORBIDDEN', `entry ${entryId} was rejected in review; it can only be deleted`);
  assertEntriesOpen(ctx, edition);
  assertParticipantInTeam(c.participantTeamId, teamId);
  const event: EntryEdited = {
    type: 'EntryEdited',
    data: {
      entryId,
      teamId,
      participantId,
      distance: validDistance(c.distance, 0),
      entryType: validEntryType(c.entryType),
      performedAt: validPerformedAt(c.performedAt, edition),
      editedAt: ctx.now,
    },
  };
  return [event, ...flagOf(event.data, c.sameDay, ctx, edition, c.teamDay)];
}

function reviewEntry(command: ReviewEntry, state: EntryState, ctx: DecisionContext): EntryEvent[] {
  const c = command.data;
  const entryId = requireId(c.entryId, 'entryId');
  if (ctx.actor.role !== 'ADMIN') throw new DomainError('FORBIDDEN', 'only an administrator decides on flagged entries');
  const { teamId, participantId } = requireActive(state, entryId);
  if (c.decision !== 'approve' && c.decision !== 'reject') throw new DomainError('INVALID_REQUEST', 'decision must be approve or reject');
  const note = requireText(c.note ?? '', 'note', { max: REVIEW_NOTE_MAX, required: false });
  if (state.review !== 'flagged') throw new DomainError('ENTRY_NOT_UNDER_REVIEW', `entry ${entryId} is not awaiting a decision`);
  const data = { entryId, teamId, participantId, note, decidedBy: ctx.actor.userId ?? '', decidedAt: ctx.now };
  return [c.decision === 'approve' ? { type: 'EntryReviewApproved', data } : { type: 'EntryReviewRejected', data }];
}

function deleteEntry(command: DeleteEntry, state: EntryState, ctx: DecisionContext, edition: Edition): EntryEvent[] {
  const entryId = requireId(command.data.entryId, 'entryId');
  const { teamId, participantId } = requireActive(state, entryId);
  assertMayActForTeam(ctx, teamId);
  assertEntriesOpen(ctx, edition);
  const event: EntryDeleted = { type: 'EntryDeleted', data: { entryId, teamId, participantId, deletedAt: ctx.now } };
  return [event];
}

function evolveEntry(state: EntryState, event: EntryEvent): EntryState {
  return match(event)
    .with({ type: 'EntryAdded' }, ({ data }) => ({
      status: 'active' as const,
      entryId: data.entryId,
      teamId: data.teamId,
      participantId: data.participantId,
      distance: data.distance,
      entryType: data.entryType,
      performedAt: data.performedAt,
      createdAt: data.createdAt,
      review: 'none' as const,
      reasons: [],
    }))
    .with({ type: 'EntryEdited' }, ({ data }) => ({
      ...state,
      participantId: data.participantId,
      distance: data.distance,
      entryType: data.entryType,
      performedAt: data.performedAt,
    }))
    .with({ type: 'EntryDeleted' }, () => ({ ...state, status: 'deleted' as const }))
    .with({ type: 'EntryFlagged' }, ({ data }) => ({ ...state, review: 'flagged' as const, reasons: data.reasons }))
    .with({ type: 'EntryReviewApproved' }, () => ({ ...state, review: 'approved' as const }))
    .with({ type: 'EntryReviewRejected' }, () => ({ ...state, review: 'rejected' as const }))
    .exhaustive();
}

/**
 * The entry decider for an edition (its dates and time zone apply).
 *
 * AddEntry → [EntryAdded] (createdAt = ctx.now); EditEntry → [EntryEdited] (editedAt = ctx.now,
 * team and participant carried; emitted even when nothing changed, as the edit is a user act);
 * DeleteEntry → [EntryDeleted] (deletedAt = ctx.now). Checks, in this order:
 * 1. ids are positive integers — INVALID_REQUEST;
 * 2. edit/delete: the entry exists and is not deleted — NOT_FOUND;
 * 3. the actor is ADMIN, SYSTEM, or a participant whose teamId is the entry's team — FORBIDDEN
 *    (spec §6);
 * 4. unless ADMIN/SYSTEM: the entry-insertion switch is on — ENTRY_INSERTION_DISABLED; the local
 *    date (Europe/Tallinn) of ctx.now is on or before edition.lateEntriesUntil (3 May) —
 *    ENTRY_DEADLINE_PASSED (spec §4);
 * 5. add: the entry id is unused (also by a deleted entry) — ALREADY_EXISTS;
 * 6. add/edit: the participant exists (participantTeamId not null) — NOT_FOUND, and belongs to the
 *    entry's team — PARTICIPANT_NOT_IN_TEAM;
 * 7. distance: km, at most two decimals, >= 0.01 to add, >= 0 to edit, <= MAX_ENTRY_DISTANCE_KM
 *    (1000, product rule) — INVALID_DISTANCE (spec §5);
 * 8. entry type: a preset ActivityType key ('OTHER' included) or free text, trimmed, 1..64
 *    characters — INVALID_ENTRY_TYPE when empty or not a string, VALUE_TOO_LONG when longer;
 * 9. performed-at: a real YYYY-MM-DD date from edition.startDate to endDate (2025-04-01..30) —
 *    INVALID_PERFORMED_AT (spec §5);
 * 10. add: the source is manual (the default) or a file with format gpx/tcx/fit and a SHA-256 of
 *    64 lower-case hex digits — INVALID_REQUEST. Edits keep the source.
 *
 * Moderation: an add or edit by a participant (not ADMIN/SYSTEM) that breaks a
 * rule of edition.moderation (moderation.ts, against data.sameDay) also yields EntryFlagged with
 * its reasons, in the same append; the entry counts until rejected. A rejected entry cannot be
 * edited (FORBIDDEN; rejection is final, deleting it is allowed). ReviewEntry → [EntryReviewApproved] or
 * [EntryReviewRejected] (decidedBy = the admin's userId, decidedAt = ctx.now): ADMIN only — FORBIDDEN; a live entry — NOT_FOUND;
 * decision approve|reject — INVALID_REQUEST; note <= 500 characters — VALUE_TOO_LONG; the entry's
 * latest flag undecided — ENTRY_NOT_UNDER_REVIEW.
 */
export function createEntryDecider(fixed?: Edition): Decider<EntryCommand, EntryEvent, EntryState> {
  return {
    initialState: initialEntryState,
    decide: (command, state, ctx) =>
      match(command)
        .with({ type: 'AddEntry' }, (c) => addEntry(c, state, ctx, editionOfDecision(fixed, ctx)))
        .with({ type: 'EditEntry' }, (c) => editEntry(c, state, ctx, editionOfDecision(fixed, ctx)))
        .with({ type: 'DeleteEntry' }, (c) => deleteEntry(c, state, ctx, editionOfDecision(fixed, ctx)))
        .with({ type: 'ReviewEntry' }, (c) => reviewEntry(c, state, ctx))
        .exhaustive(),
    evolve: evolveEntry,
  };
}

/** The entry decider of the decision's edition, the context's (see createEntryDecider for rules and codes). */
export const entryDecider: Decider<EntryCommand, EntryEvent, EntryState> = createEntryDecider();
