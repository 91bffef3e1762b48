/**
 * The pure decision of one bulk-import command over the import's in-memory
 * stream states: the repeat check (docs/decisions/0007: the command's first event stored already in the stream),
 * then the stream's decider of @sinilill/domain (teamDecider, participantDecider, accountDecider,
 * entryDecider) on its state, with the command-by-command path's DecisionContext (actor SYSTEM,
 * `now` the command's instant, entry insertion on) and its event ids, metadata and schema
 * versions. No I/O: BulkImporter (bulk-import.ts) loads the streams' slots, calls BulkDecider per
 * command and appends what it decided.
 *
 * Shapes: a Slot is one stream's state, revision and stored events; an Overlay holds the slots a
 * batch changed, over the batch below it (still being appended) and the committed slots; a
 * Decided is a command's events per stream (Parts) and account-table reservations, or a repeat.
 * Errors: DomainError from a decider (the importer stops the import there); Error for a stream of
 * no known kind or one that was not loaded (a bug of the importer).
 */
import {
  DomainError,
  SCHEMA_VERSIONS,
  accountDecider,
  entryDecider,
  participantDecider,
  streams,
  teamDecider,
  type ActingUser,
  type Decider,
  type DecisionContext,
  type DomainEventType,
  type Edition,
  type ParticipantState,
  type TeamState,
} from '@sinilill/domain';
import type { EventData, RecordedEvent } from '@sinilill/event-store';
import { eventIdFor, eventMetadataOf } from '../metadata';
import type { EmailRowReservation, TeamRowReservation } from './account-rows';
import { accountUserId, type BulkCommand } from './bulk-types';

/** The system actor every bulk command runs as (the importer's, as on the command-by-command path). */
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };

/** One stream's state as the import sees it. */
export interface Slot {
  state: unknown;
  /** Revision of the stream's last event; -1 when the stream does not exist. */
  revision: number;
  /** The stream's events as stored when it was read (null when it had none): for the repeat check. */
  stored: readonly { id: string; commandId: string | undefined; position: number }[] | null;
}

/** One stream's part of a decided command. */
export interface Part {
  stream: string;
  events: EventData[];
  /** The stream's slot after the part. */
  after: Slot;
}

/** A command decided (or found repeated) in a batch, not yet appended. */
export interface Decided {
  order: number;
  command: BulkCommand;
  parts: Part[];
  /** Position of the stored command (repeat), else 0. */
  repeatPosition: number;
  repeated: boolean;
  team?: TeamRowReservation;
  email?: EmailRowReservation;
}

/**
 * The slots a batch changed (copy on write), over the batch still being appended (`below`, whose
 * slots are emptied once it is committed) and the committed slots.
 */
export interface Overlay {
  slots: Map<string, Slot>;
  below: Overlay | null;
}

type AnyDecider = Decider<unknown, { type: DomainEventType; data: unknown }, unknown, DecisionContext>;

/** The decider whose state a stream holds, by the stream's name. */
function deciderOf(stream: string): AnyDecider {
  const kind = stream.slice(0, stream.indexOf('-'));
  const decider = kind === 'team' ? teamDecider
    : kind === 'participant' ? participantDecider
      : kind === 'entry' ? entryDecider
        : kind === 'user' ? accountDecider
          : null;
  if (!decider) throw new Error(`bulk import: no decider for stream ${stream}`);
  return decider as unknown as AnyDecider;
}

/**
 * Decides bulk commands on the import's stream states (see the module's comment): `slots` are the
 * committed slots (the importer's map, read here and updated by the importer after each append);
 * a batch's changes go to its Overlay.
 */
export class BulkDecider {
  /** Every stream touched so far, committed (shared with the importer, which keeps it up to date). */
  private readonly slots: ReadonlyMap<string, Slot>;
  /** Whether every participant also gets an account (the import has a directory) and teams their reservations. */
  private readonly accounts: boolean;
  /** The events' correlation id, e.g. `import:2025`. */
  private readonly correlationId: string;
  /** The edition the import's decisions run under (BulkImporterOptions.edition). */
  private readonly edition: Edition | undefined;

  constructor(options: { slots: ReadonlyMap<string, Slot>; accounts: boolean; correlationId: string; edition?: Edition }) {
    this.slots = options.slots;
    this.accounts = options.accounts;
    this.correlationId = options.correlationId;
    this.edition = options.edition;
  }

  /**
   * The stream's current slot for a batch: its overlay's, the batch's below it, else the committed one.
   * @throws Error when the stream was not loaded.
   */
  private slot(stream: string, overlay: Overlay): Slot {
    const slot = overlay.slots.get(stream) ?? overlay.below?.slots.get(stream) ?? this.slots.get(stream);
    if (!slot) throw new Error(`bulk import: stream ${stream} was not loaded`);
    return slot;
  }

  /**
   * Decides one command on `overlay` (the batch's states): the events of each stream, or a repeat.
   * @throws DomainError from a decider (the caller stops the import there); Error when a stream it
   *   needs was not loaded.
   */
  decide(order: number, command: BulkCommand, overlay: Overlay): Decided {
    const context: DecisionContext = {
      now: new Date(command.at).toISOString(), actor: SYSTEM, entryInsertionEnabled: true,
      ...(this.edition ? { edition: this.edition } : {}),
    };
    const decided: Decided = { order, command, parts: [], repeatPosition: 0, repeated: false };
    switch (command.type) {
      case 'RegisterTeam': {
        const { data } = command;
        const teamStream = streams.team(data.teamId);
        this.decideOn(decided, teamStream, command.commandId, { type: 'RegisterTeam', data }, context, overlay);
        // Reservations are (re-)asserted for a repeat too, as registerTeam does, in the edition
        // the team was registered into (its state after the decision, or as stored for a repeat).
        const edition = (this.slot(teamStream, overlay).state as TeamState).edition;
        if (this.accounts && edition !== null) {
          decided.team = { order, teamId: data.teamId, teamName: data.teamName, joinCode: data.joinCode, createdAt: new Date(context.now), edition };
        }
        break;
      }
      case 'RegisterParticipant': {
        const { data } = command;
        this.decideOn(decided, streams.participant(data.participantId), command.commandId, { type: 'RegisterParticipant', data }, context, overlay);
        if (this.accounts) {
          // registerParticipantAccount: approved (the system registers), no password, registration open to the system.
          const commandId = `${command.commandId}:account`;
          const userId = accountUserId(command.commandId);
          const account = {
            type: 'RegisterUser',
            data: {
              userId, participantId: data.participantId, email: data.email, fullName: data.fullName, role: 'USER',
              approved: true, hasPassword: false, lang: 'est', registrationEnabled: true,
            },
          };
          const repeat = this.decideOn(decided, streams.user(userId), commandId, account, context, overlay);
          if (!repeat) decided.email = { order, email: data.email, userId };
        }
        break;
      }
      case 'MarkPayment':
        this.decideOn(decided, streams.participant(command.data.participantId), command.commandId,
          {
            type: 'MarkPayment',
            data: {
              participantId: command.data.participantId, isPaid: command.data.isPaid, source: 'import',
              ...(command.data.company === true ? { company: true } : {}),
            },
          }, context, overlay);
        break;
      case 'AddEntry': {
        const { data } = command;
        const entryStream = streams.entry(data.entryId);
        if (this.repeatOf(entryStream, command.commandId, overlay, decided)) break;
        const participant = this.slot(streams.participant(data.participantId), overlay).state as ParticipantState;
        // A deleted participant has no team (CommandService.participantTeam).
        const participantTeamId = participant.exists && !participant.deleted ? participant.teamId : null;
        if (participantTeamId === null) throw new DomainError('NOT_FOUND', `participant ${data.participantId}`);
        this.decideOn(decided, entryStream, command.commandId, {
          type: 'AddEntry',
          data: {
            entryId: data.entryId, teamId: participantTeamId, participantId: data.participantId, participantTeamId,
            distance: data.distance, entryType: data.entryType, performedAt: data.performedAt,
          },
        }, context, overlay);
        break;
      }
    }
    return decided;
  }

  /**
   * True (and the stored position noted) when the command's first event is stored in `stream`
   * already: the repeat check every command makes first (priorCommand).
   */
  private repeatOf(stream: string, commandId: string, overlay: Overlay, decided: Decided): boolean {
    const { stored } = this.slot(stream, overlay);
    if (!stored) return false;
    const firstId = eventIdFor(commandId, 0);
    if (!stored.some((event) => event.id === firstId)) return false;
    decided.repeated = true;
    for (const event of stored) {
      if (event.commandId === commandId) decided.repeatPosition = Math.max(decided.repeatPosition, event.position);
    }
    return true;
  }

  /**
   * One stream's part of a command: the repeat check, then the stream's decider on its state; the
   * events (if any) become a Part with the state after them.
   * @returns true when the command was a repeat.
   * @throws DomainError from the decider.
   */
  private decideOn(
    decided: Decided,
    stream: string,
    commandId: string,
    command: { type: string; data: unknown },
    context: DecisionContext,
    overlay: Overlay,
  ): boolean {
    if (this.repeatOf(stream, commandId, overlay, decided)) return true;
    const slot = this.slot(stream, overlay);
    const decider = deciderOf(stream);
    const events = decider.decide(command, slot.state, context);
    if (events.length === 0) return false;
    let state = slot.state;
    for (const event of events) state = decider.evolve(state, event);
    const after: Slot = { state, revision: slot.revision + events.length, stored: slot.stored };
    overlay.slots.set(stream, after);
    const metadata = eventMetadataOf(context, { commandId, correlationId: this.correlationId, causationId: null, imported: true });
    decided.parts.push({
      stream,
      after,
      events: events.map((event, index) => ({
        id: eventIdFor(commandId, index),
        type: event.type,
        schemaVersion: SCHEMA_VERSIONS[event.type],
        data: event.data,
        metadata,
      })),
    });
    return false;
  }
}

/**
 * A stream's slot from its recorded events (folded with the stream's decider; revision -1 and no
 * stored events when it has none).
 * @throws Error for a stream of no known kind (team-, participant-, entry-, user-).
 */
export function slotOf(stream: string, events: readonly RecordedEvent[]): Slot {
  const decider = deciderOf(stream);
  let state = decider.initialState();
  for (const event of events) state = decider.evolve(state, { type: event.type as DomainEventType, data: event.data });
  const last = events.at(-1);
  return {
    state,
    revision: last ? last.revision : -1,
    stored: events.length === 0 ? null : events.map((event) => ({ id: event.id, commandId: event.metadata.commandId, position: event.globalPosition })),
  };
}
