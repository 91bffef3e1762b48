/**
 * The bulk import's vocabulary: the commands BulkImporter takes (RegisterTeam,
 * RegisterParticipant with its account, MarkPayment, AddEntry, each with its label, command id and
 * instant), its options, what a run reports (BulkRunResult, BulkTimings), the error that stops it
 * (BulkImportStopped) and the user id of an imported participant's account (accountUserId).
 * Shapes only, besides BulkImportStopped and accountUserId; the behaviour is in bulk-import.ts
 * (batching, appending) and bulk-decide.ts (deciding one command in memory).
 */
import type pg from 'pg';
import type { Edition, Gender } from '@sinilill/domain';
import type { EventStore } from '@sinilill/event-store';
import type { AccountDirectory } from '../account/directory';
import { deterministicUuid } from '../metadata';

/** What every bulk command carries besides its data. */
interface BulkCommandBase {
  /** Names the input row in errors: "import stopped at <label>: …" (e.g. `team 12`). */
  label: string;
  /** The command id (docs/decisions/0007), e.g. `import:2025:team:12`; the event ids derive from it. */
  commandId: string;
  /** The decision's instant, ISO-8601 (the row's original created_at). */
  at: string;
  /** Progress: how many input rows are done once this command is imported (1-based row number). */
  row?: number;
}

/** A team as registerTeam takes it (the importer's team row; the team id is the old one). */
export interface BulkRegisterTeam extends BulkCommandBase {
  type: 'RegisterTeam';
  data: { teamId: number; teamName: string; description: string; joinCode: string; icon: string | null };
}

/** A participant as registerParticipant takes it; with a directory also their account. */
export interface BulkRegisterParticipant extends BulkCommandBase {
  type: 'RegisterParticipant';
  data: {
    participantId: number; teamId: number; fullName: string; email: string; birthYear: number; gender: Gender;
    isCaptain: boolean; newsletter: boolean;
  };
}

/**
 * A paid flag as markPayment sets it for the importer (source 'import': the fee assumed paid);
 * `company` when the export says the participant's team is a company team (default false).
 */
export interface BulkMarkPayment extends BulkCommandBase {
  type: 'MarkPayment';
  data: { participantId: number; isPaid: boolean; company?: boolean };
}

/** An entry as addEntry takes it; its team is the participant's (from the participant's stream). */
export interface BulkAddEntry extends BulkCommandBase {
  type: 'AddEntry';
  /** distance in km (at most two decimals), performedAt YYYY-MM-DD. */
  data: { entryId: number; participantId: number; distance: number; entryType: string; performedAt: string };
}

/** One command of a bulk import. */
export type BulkCommand = BulkRegisterTeam | BulkRegisterParticipant | BulkMarkPayment | BulkAddEntry;

/** The bulk import stopped at a command: the message names its label, `cause` is the refusal. */
export class BulkImportStopped extends Error {
  override readonly name = 'BulkImportStopped';
  constructor(readonly label: string, cause: unknown) {
    super(`import stopped at ${label}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** What a BulkImporter is built with. The constructor throws TypeError for a directory without a pool or a batchEvents below 1. */
export interface BulkImporterOptions {
  /** The event store the events are appended to (with personal-data protection, as the app's). */
  store: EventStore;
  /**
   * The account tables. With it, as CommandService with a directory: team names and join codes
   * are indexed and every participant gets an approved account without a password.
   */
  directory?: AccountDirectory;
  /**
   * The database of the account tables: the batch's reservations (required with `directory`).
   */
  pool?: pg.Pool;
  /** The events' correlation id, e.g. `import:2025`. */
  correlationId: string;
  /**
   * The edition the imported teams, participants and entries belong to: the decisions' context
   * edition (its limits, fees and dates apply; TeamRegistered and ParticipantRegistered carry its
   * year). Without it no edition is in the context and a registration is refused
   * (REGISTRATION_NOT_OPEN), as a command is when no edition exists.
   */
  edition?: Edition;
  /** Events per append (default 5 000): one appendToStreams call, one account-table transaction. */
  batchEvents?: number;
}

/**
 * Where the time of a bulk import went, ms (wall clock, summed over batches). Reading and deciding
 * a batch overlap with appending the one before it, so the parts may add up to more than the
 * import's time.
 */
export interface BulkTimings {
  /** Reading and folding the touched streams. */
  loadMs: number;
  /** Deciding in memory and building the EventData. */
  decideMs: number;
  /** Account-table reservations (multi-row inserts and owner checks). */
  reserveMs: number;
  /** appendToStreams (encryption of personal fields included) and the account-table commit. */
  appendMs: number;
}

/** What one `run` did. */
export interface BulkRunResult {
  /** Commands handled (decided or found repeated). */
  commands: number;
  /** Commands found stored already (nothing appended for them). */
  repeated: number;
  /** Events appended. */
  events: number;
  /** appendToStreams calls. */
  batches: number;
  /** Highest global position of this run's commands (the stored one for a repeat); 0 when none. */
  position: number;
}

/** The user id of the account registerParticipant gives a participant registered by `commandId`. */
export function accountUserId(commandId: string): string {
  return deterministicUuid(`account:${commandId}:account`);
}
