/**
 * The application's commands, shared by the command API and the importer (the importer passes
 * the old system's original times and ids and marks its metadata `imported`).
 *
 * Each method resolves what the pure decider needs from other streams (the participant's team,
 * the actor's own team), allocates ids, and runs handleCommand. Authorization and validation are
 * the deciders' (spec §5, §6, §8); this layer only gathers facts.
 *
 * With an AccountDirectory (`directory`), registering a team also records its name and join code
 * in the account indexes, and registering a participant also gives them an account: approved and
 * without a password when the system (the importer) or an administrator registers them, so that
 * the 2025 people set a password through forgot-password. Both stay idempotent: a repeated
 * command re-asserts its own reservations (same owner) and appends nothing.
 *
 * Every command is idempotent by its command id (D7): a repeat answers as the first run did and
 * appends nothing; a repeat with another request fingerprint is IDEMPOTENCY_KEY_REUSED. The
 * command API runs keyed requests through `idempotent`, which makes a retry wait for a first
 * request that is still running.
 */
import { assertKeptFields, type KeptField } from './server-kept';
import {
  DomainError,
  accountDecider,
  entryDecider,
  isPrivileged,
  participantDecider,
  streams,
  teamDecider,
  type ActingUser,
  type DecisionContext,
  type EntryAdded,
  type EntryEdited,
  type Gender,
  type JoinCodeReplaced,
  type TeamRegistered,
  type TeamState,
  type TeamEvent,
  type ParticipantState,
} from '@sinilill/domain';
import type { EventStore } from '@sinilill/event-store';
import type { AccountDirectory, AccountTransaction } from './accounts/directory';
import { newJoinCode } from './accounts/secrets';
import {
  appendDecided,
  decideAcrossStreams,
  deterministicUuid,
  foldStream,
  handleCommand,
  idOfStream,
  lastPositionOf,
  priorCommand,
  streamDecision,
  type CommandMetadata,
  type StreamDecision,
} from './handle';
import { KeyedMutex } from './idempotency';
import { PaymentCommands, type PaymentOrderInput, type PaymentOrderView, type PaymentOutcomeInput, type RefundInput, type RefundResult } from './payments';
import type { IdAllocator } from './ids';
import { readSettings } from './settings';

/** Who asks, when, and the command's ids. */
export interface CommandRequest {
  actor: ActingUser;
  metadata: CommandMetadata;
  /** The decision's instant; default the service's clock (the importer passes the original time). */
  now?: Date;
}

export interface CommandServiceDependencies {
  store: EventStore;
  ids: IdAllocator;
  /** The configured clock. */
  now: () => Date;
  /**
   * The global entry-insertion switch (spec §4). Default: read from the `settings` stream (on
   * until an administrator turns it off). Not consulted for ADMIN and SYSTEM, whom it does not bind.
   */
  entryInsertionEnabled?: () => Promise<boolean> | boolean;
  /**
   * The account tables (indexes of team names, join codes and e-mails). Without it, teams and
   * participants are registered without index entries or accounts (tools and tests that need
   * neither).
   */
  directory?: AccountDirectory;
  /**
   * Erases a personal-data subject (the event store's PersonalDataVault.forget): deleting a user
   * or a team destroys the person's key (D2). Needed by deleteUsers and deleteTeams only.
   */
  personalData?: { forget(subject: string): Promise<void> };
  /**
   * The ids of a participant's live entries (deleteUsers, deleteTeams cascade). The command API
   * reads rm.team_entries by participant_id: reading the whole log for them would be far too
   * slow, and there is no index of entry streams by participant in the store. Each id is checked
   * against its own stream before it is deleted (a deleted or moved entry is skipped), so a stale
   * read model can only leave out entries appended after its checkpoint (read-model lag, D3).
   */
  entriesOfParticipant?: (participantId: number) => Promise<number[]>;
  /**
   * The participant ids of a team's members (deleteTeams cascade), from rm.team_members; each is
   * checked against its stream as for entriesOfParticipant.
   */
  membersOfTeam?: (teamId: number) => Promise<number[]>;
  /**
   * The ids of the orders with a reference (rm.payment_orders), for an administrator's refund by
   * reference (issue 14); the order's own stream decides everything else.
   */
  ordersOfReference?: (reference: string) => Promise<string[]>;
}

/** One person to delete: an account, its participant, or both. */
interface PersonToDelete {
  userId: string | null;
  participantId: number | null;
}

/** A team as the admin's PUT /admin/team/{id} answers it. */
export interface AdminTeamView {
  id: number;
  team_name: string;
  description: string;
  icon: string | null;
}

/** An entry as answered to the client (spec §3 "Entry"), distance in km. */
export interface EntryView {
  id: number;
  team_id: number;
  participant_id: number;
  distance: number;
  entry_type: string;
  performed_at: string;
  created_at: string;
}

export interface EntryInput {
  /** Default: the acting participant. */
  participantId?: number;
  /** km. */
  distance: number;
  entryType: string;
  /** YYYY-MM-DD. */
  performedAt: string;
  /**
   * What a client sending the whole §3 Entry (or an admin row) echoes of the fields the server
   * keeps; each is compared, never applied (server-kept.ts; issue 14). On a new entry id and
   * created_at must be null (it has none yet).
   */
  echoed?: EchoedEntryFields;
}

/** The server-kept fields of a §3 Entry (and of an admin row: participant.full_name, team.team_name). */
export interface EchoedEntryFields {
  id?: number | null;
  team_id?: number;
  /** ISO-8601. */
  created_at?: string | null;
  participantFullName?: string | null;
  teamName?: string | null;
}

/**
 * The team, participant, entry, payment and admin commands (see the module's comment). Each command
 * answers the global position of its last appended event, for read-your-writes
 * (`x-min-position`), and throws DomainError with a catalogue code (spec §8) on refusal.
 */
export class CommandService {
  /** Keyed requests in progress in this process, by command id (see idempotent). */
  private readonly inProgress = new KeyedMutex();

  /** The payment commands (payments.ts), over the same store and clock. */
  private readonly payments: PaymentCommands;

  constructor(private readonly deps: CommandServiceDependencies) {
    this.payments = new PaymentCommands(deps);
  }

  /**
   * Runs one keyed request's command (`run`, a call of this service or the AccountService with
   * `request`) so that a repeat of it answers what the first run answered (D7; issue 13 item 6):
   *
   * - requests with the same command id run one after another in this process: a retry that
   *   arrives while the first request still runs waits for it, then finds its events and answers
   *   as a repeat (same answer, nothing appended);
   * - before running, the command id's first event (if any) must carry this request's
   *   fingerprint: another body, path or route under the same key is refused with
   *   IDEMPOTENCY_KEY_REUSED (422), whichever command it is;
   * - when the run fails and meanwhile the command id got stored (a twin of the request handled by
   *   another process won the race: the store refused this run's duplicate event ids, or a
   *   refusal or conflict came from the twin's events), the run is repeated once and so answers
   *   as a repeat of the twin.
   *
   * A run refused with a domain error appended nothing and is not remembered: the same request
   * may be sent again and is decided again. A request without a fingerprint (no Idempotency-Key:
   * a fresh command id) runs at once, unchecked.
   * @throws whatever `run` throws; DomainError('IDEMPOTENCY_KEY_REUSED').
   */
  async idempotent<T>(request: CommandRequest, run: () => Promise<T>): Promise<T> {
    const { metadata } = request;
    if (metadata.requestFingerprint === undefined) return run();
    return this.inProgress.run(metadata.commandId, async () => {
      if (await priorCommand(this.deps.store, metadata)) return run();
      try {
        return await run();
      } catch (error) {
        if (error instanceof DomainError && error.code === 'IDEMPOTENCY_KEY_REUSED') throw error;
        // Throws IDEMPOTENCY_KEY_REUSED itself when the twin was another request.
        if ((await priorCommand(this.deps.store, metadata)) === null) throw error;
        return run();
      }
    });
  }

  private async context(request: CommandRequest): Promise<DecisionContext> {
    return {
      now: (request.now ?? this.deps.now()).toISOString(),
      actor: request.actor,
      // The switch never binds ADMIN and SYSTEM: the importer's 19 000 entries skip the read.
      entryInsertionEnabled: isPrivileged(request.actor) ? true : await this.entryInsertionEnabled(),
    };
  }

  private async entryInsertionEnabled(): Promise<boolean> {
    if (this.deps.entryInsertionEnabled) return this.deps.entryInsertionEnabled();
    return (await readSettings(this.deps.store)).entryInsertionEnabled;
  }

  /** The team a participant belongs to, from the participant's stream; null when unknown. */
  async participantTeam(participantId: number): Promise<number | null> {
    const events = await this.deps.store.readStream(streams.participant(participantId));
    const state = foldStream(participantDecider, events);
    // A deleted participant has no team: AddEntry and EditEntry for them answer NOT_FOUND.
    return state.exists && !state.deleted ? state.teamId : null;
  }

  /**
   * The acting user with the team read from the event log (not trusted from the token), so a
   * stale or forged teamId claim grants nothing.
   */
  async resolveActor(actor: ActingUser): Promise<ActingUser> {
    if (actor.role !== 'USER' || actor.participantId === null) return { ...actor, teamId: actor.role === 'USER' ? null : actor.teamId };
    return { ...actor, teamId: await this.participantTeam(actor.participantId) };
  }

  /**
   * Registers a team (importer; the API registers teams with their captain through the
   * AccountService). With a directory, the name and join code go into the indexes in the same
   * transaction as the append.
   * @throws DomainError TEAM_NAME_ALREADY_IN_USE (name taken by another team, compared trimmed,
   *   NFKC, case-insensitively), INVALID_JOIN_CODE (join code taken by another team), and the
   *   team decider's codes.
   */
  async registerTeam(
    input: { teamId?: number; teamName: string; description: string; joinCode: string; icon: string | null },
    request: CommandRequest,
  ): Promise<{ teamId: number; position: number }> {
    const previous = await priorCommand(this.deps.store, request.metadata);
    const teamId = previous?.type === 'TeamRegistered'
      ? (previous.data as TeamRegistered['data']).teamId
      : input.teamId ?? (await this.deps.ids.next('team'));
    const context = await this.context(request);
    const register = () => handleCommand(this.deps.store, streams.team(teamId), teamDecider,
      { type: 'RegisterTeam', data: { teamId, teamName: input.teamName, description: input.description, joinCode: input.joinCode, icon: input.icon } },
      context, request.metadata, { previous });
    const { directory } = this.deps;
    const result = !directory ? await register() : await directory.transaction(async (tx) => {
      await tx.reserveTeamName(input.teamName, teamId);
      if (!(await tx.reserveJoinCode(input.joinCode, teamId, null, new Date(context.now)))) {
        throw new DomainError('INVALID_JOIN_CODE', `join code ${input.joinCode} belongs to another team`);
      }
      return register();
    });
    return { teamId: idOfStream(result.stream), position: result.position };
  }

  /**
   * Registers a participant into a team (importer). With a directory, also the participant's
   * account (see the class comment): its id derives from the command id, so a repeated command
   * finds the same account and the same e-mail reservation.
   * @throws DomainError EMAIL_ALREADY_IN_USE (another account has the e-mail), and the
   *   participant and account deciders' codes.
   */
  async registerParticipant(
    input: { participantId?: number; teamId: number; fullName: string; email: string; birthYear: number; gender: Gender; isCaptain: boolean; newsletter: boolean },
    request: CommandRequest,
  ): Promise<{ participantId: number; position: number }> {
    const previous = await priorCommand(this.deps.store, request.metadata);
    const participantId = previous?.type === 'ParticipantRegistered'
      ? idOfStream(previous.stream)
      : input.participantId ?? (await this.deps.ids.next('participant'));
    const { participantId: _ignored, ...rest } = input;
    const context = await this.context(request);
    const result = await handleCommand(this.deps.store, streams.participant(participantId), participantDecider,
      { type: 'RegisterParticipant', data: { ...rest, participantId } },
      context, request.metadata, { previous });
    if (!this.deps.directory) return { participantId: idOfStream(result.stream), position: result.position };
    const account = await this.registerParticipantAccount(participantId, input, context, request);
    return { participantId: idOfStream(result.stream), position: Math.max(result.position, account.position) };
  }

  /** The account of a participant registered through registerParticipant (command `<id>:account`). */
  private async registerParticipantAccount(
    participantId: number,
    input: { fullName: string; email: string },
    context: DecisionContext,
    request: CommandRequest,
  ): Promise<{ userId: string; position: number }> {
    const directory = this.deps.directory!;
    const metadata: CommandMetadata = { ...request.metadata, commandId: `${request.metadata.commandId}:account` };
    const userId = deterministicUuid(`account:${metadata.commandId}`);
    const previous = await priorCommand(this.deps.store, metadata);
    if (previous) return { userId, position: await lastPositionOf(this.deps.store, previous) };
    const privileged = isPrivileged(request.actor);
    const registrationEnabled = privileged || (await readSettings(this.deps.store)).registrationEnabled;
    const result = await directory.transaction(async (tx) => {
      await tx.reserveEmail(input.email, userId);
      return handleCommand(this.deps.store, streams.user(userId), accountDecider, {
        type: 'RegisterUser',
        data: {
          userId, participantId, email: input.email, fullName: input.fullName, role: 'USER',
          approved: privileged, hasPassword: false, lang: 'est', registrationEnabled,
        },
      }, context, metadata, { previous: null });
    });
    return { userId, position: result.position };
  }

  /**
   * Sets a participant's paid flag (admin, importer): PaymentCommands.markPayment. An
   * administrator's mark says so (ParticipantPaymentMarked.source 'admin') and records the fee due
   * as money verified by hand, counted in the fundraising totals (issue 14); the importer's carries
   * no source.
   * @throws DomainError FORBIDDEN, NOT_FOUND, INVALID_REQUEST.
   */
  markPayment(participantId: number, isPaid: boolean, request: CommandRequest): Promise<{ position: number }> {
    return this.payments.markPayment(participantId, isPaid, request);
  }

  /**
   * Logs a distance for a team member (spec §7 POST /entry). The entry's team is the member's.
   * @throws DomainError NOT_FOUND (no such member), FORBIDDEN, INVALID_* (spec §5), and the
   *   switch / deadline codes.
   */
  async addEntry(
    input: EntryInput & { entryId?: number },
    request: CommandRequest,
  ): Promise<{ entry: EntryView; position: number }> {
    const previous = await priorCommand(this.deps.store, request.metadata);
    if (previous?.type === 'EntryAdded') {
      // A repeated command (client retry, importer run again): answer as the first time.
      const data = previous.data as EntryAdded['data'];
      return { entry: await this.entryView(data.entryId), position: await lastPositionOf(this.deps.store, previous) };
    }
    const participantId = input.participantId ?? request.actor.participantId;
    if (participantId === null || participantId === undefined) throw new DomainError('NOT_FOUND', 'no participant given');
    const participantTeamId = await this.participantTeam(participantId);
    if (participantTeamId === null) throw new DomainError('NOT_FOUND', `participant ${participantId}`);
    if (input.echoed) await this.assertEchoedEntry(input.echoed, { id: null, teamId: participantTeamId, participantId, createdAt: null }, request);
    const entryId = input.entryId ?? (await this.deps.ids.next('entry'));
    const result = await handleCommand(this.deps.store, streams.entry(entryId), entryDecider,
      { type: 'AddEntry', data: { entryId, teamId: participantTeamId, participantId, participantTeamId, distance: input.distance, entryType: input.entryType, performedAt: input.performedAt } },
      await this.context(request), request.metadata, { previous });
    if (result.repeated) return { entry: await this.entryView(idOfStream(result.stream)), position: result.position };
    const added = result.events[0] as EntryAdded;
    return { entry: viewOfAdded(added), position: result.position };
  }

  /**
   * Changes an entry (spec §7 PUT /entry/{id}/edit). A repeat answers the entry as it is now and
   * the position of the first run's event.
   * @throws DomainError NOT_FOUND (no such live entry), FORBIDDEN, INVALID_* (spec §5), the switch
   *   and deadline codes, IDEMPOTENCY_KEY_REUSED.
   */
  async editEntry(entryId: number, input: EntryInput, request: CommandRequest): Promise<{ entry: EntryView; position: number }> {
    const previous = await priorCommand(this.deps.store, request.metadata);
    if (previous) return { entry: await this.entryView(entryId), position: await lastPositionOf(this.deps.store, previous) };
    const current = foldStream(entryDecider, await this.deps.store.readStream(streams.entry(entryId)));
    if (current.status !== 'active') throw new DomainError('NOT_FOUND', `entry ${entryId}`);
    if (input.echoed) await this.assertEchoedEntry(input.echoed, { id: entryId, teamId: current.teamId!, participantId: current.participantId!, createdAt: current.createdAt }, request);
    const participantId = input.participantId ?? current.participantId!;
    const participantTeamId = await this.participantTeam(participantId);
    const result = await handleCommand(this.deps.store, streams.entry(entryId), entryDecider,
      { type: 'EditEntry', data: { entryId, participantId, participantTeamId, distance: input.distance, entryType: input.entryType, performedAt: input.performedAt } },
      await this.context(request), request.metadata, { previous: null });
    return { entry: await this.entryView(entryId), position: result.position };
  }

  /**
   * Deletes entries (spec §7 PUT /entry/delete): EntryDeleted for each, in ONE atomic append
   * across the entry streams, so a refused id leaves all of them in place. A repeat of the
   * command answers the same count and position and deletes nothing.
   * @throws DomainError NOT_FOUND (unknown or already deleted entry), FORBIDDEN,
   *   CONCURRENCY_CONFLICT, IDEMPOTENCY_KEY_REUSED.
   */
  async deleteEntries(entryIds: readonly number[], request: CommandRequest): Promise<{ count: number; position: number }> {
    const unique = [...new Set(entryIds)];
    const previous = await priorCommand(this.deps.store, request.metadata);
    if (previous) return { count: unique.length, position: await lastPositionOf(this.deps.store, previous) };
    const decisions = unique.map((entryId) =>
      streamDecision(streams.entry(entryId), entryDecider, { type: 'DeleteEntry', data: { entryId } }));
    const decided = await decideAcrossStreams(this.deps.store, decisions, await this.context(request), request.metadata);
    return { count: unique.length, position: await appendDecided(this.deps.store, decided) };
  }

  /**
   * Compares an entry's echoed fields with the entry as the server keeps it (server-kept.ts).
   * Only for a caller who may act on the entry's team (a member, an admin, the system): anyone
   * else goes on to the decider's FORBIDDEN, so a mismatch never tells a stranger what is stored.
   * @throws DomainError FIELD_MISMATCH naming the field.
   */
  private async assertEchoedEntry(
    echoed: EchoedEntryFields,
    entry: { id: number | null; teamId: number; participantId: number; createdAt: string | null },
    request: CommandRequest,
  ): Promise<void> {
    if (!isPrivileged(request.actor) && request.actor.teamId !== entry.teamId) return;
    const fields: KeptField[] = [
      { field: 'id', sent: echoed.id, kept: entry.id },
      { field: 'team_id', sent: echoed.team_id, kept: entry.teamId },
      { field: 'created_at', sent: echoed.created_at, kept: entry.createdAt, compare: 'instant' },
    ];
    if (echoed.teamName !== undefined) fields.push({ field: 'team.team_name', sent: echoed.teamName, kept: (await this.team(entry.teamId)).teamName });
    if (echoed.participantFullName !== undefined) {
      const participant = foldStream(participantDecider, await this.deps.store.readStream(streams.participant(entry.participantId)));
      fields.push({ field: 'participant.full_name', sent: echoed.participantFullName, kept: participant.fullName });
    }
    assertKeptFields(fields);
  }

  /** The participant's state from its stream (`exists` false for an unknown participant). */
  async participant(participantId: number): Promise<ParticipantState> {
    return foldStream(participantDecider, await this.deps.store.readStream(streams.participant(participantId)));
  }

  /** The team's state from its stream (`exists` false for an unknown team). */
  async team(teamId: number): Promise<TeamState> {
    return foldStream(teamDecider, await this.deps.store.readStream(streams.team(teamId)));
  }

  /**
   * Changes the team's public card (spec §7 PUT /team/{id}/publicattributes). `icon` is already a
   * stored reference (the media store's `/api/images/<sha256>.webp`) or null to remove it; a field
   * left undefined stays. Only the fields that differ are recorded.
   * @returns the card after the change, and the position of its event (0 when nothing changed).
   * @throws DomainError NOT_FOUND (no such team), FORBIDDEN (not a member of the team, an admin or
   *   the system), VALUE_TOO_LONG (description over 256 characters), INVALID_REQUEST (bad icon
   *   reference), CONCURRENCY_CONFLICT.
   */
  async changeTeamPublicAttributes(
    teamId: number,
    input: { icon?: string | null; description?: string },
    request: CommandRequest,
  ): Promise<{ team: { id: number; icon: string | null; description: string }; position: number }> {
    const result = await handleCommand(this.deps.store, streams.team(teamId), teamDecider,
      { type: 'ChangeTeamPublicAttributes', data: { teamId, ...input } },
      await this.context(request), request.metadata);
    const team = await this.team(teamId);
    const changed = result.repeated || result.events.length > 0;
    return { team: { id: teamId, icon: team.icon, description: team.description ?? '' }, position: changed ? result.position : 0 };
  }

  /**
   * Gives the team a new random join code (spec §7 GET /team/{id}/newcode; §4 "Join code
   * regeneration invalidates the old code"). With a directory, in one transaction: every live code
   * of the team in app.join_codes is revoked, the new code is recorded (drawn again if it ever
   * existed), and JoinCodeReplaced is appended last, so a failed append revokes nothing. /jointeam
   * then accepts only the new code.
   * @returns the new code, when it became the team's code (ISO-8601 UTC), and the event's position.
   * @throws DomainError NOT_FOUND (no such team), FORBIDDEN (not a member of the team, an admin or
   *   the system), CONCURRENCY_CONFLICT.
   */
  async replaceJoinCode(teamId: number, request: CommandRequest): Promise<{ code: string; createdAt: string; position: number }> {
    const previous = await priorCommand(this.deps.store, request.metadata);
    if (previous?.type === 'JoinCodeReplaced') {
      const data = previous.data as JoinCodeReplaced['data'];
      return { code: data.joinCode, createdAt: data.replacedAt, position: await lastPositionOf(this.deps.store, previous) };
    }
    const context = await this.context(request);
    // Refuse a stranger or an unknown team before touching the join-code table (pure decision).
    teamDecider.decide({ type: 'ReplaceJoinCode', data: { teamId, joinCode: newJoinCode() } }, await this.team(teamId), context);
    const replace = (joinCode: string) => handleCommand(this.deps.store, streams.team(teamId), teamDecider,
      { type: 'ReplaceJoinCode', data: { teamId, joinCode } }, context, request.metadata, { previous: null });
    const { directory } = this.deps;
    const result = !directory ? await replace(newJoinCode()) : await directory.transaction(async (tx) => {
      const at = new Date(context.now);
      await tx.revokeJoinCodes(teamId, at);
      let code = newJoinCode();
      while (!(await tx.addJoinCode(code, teamId, at))) code = newJoinCode();
      return replace(code);
    });
    const replaced = result.events[0] as JoinCodeReplaced;
    return { code: replaced.data.joinCode, createdAt: replaced.data.replacedAt, position: result.position };
  }

  // ---- payments (issue 7, issue 14; spec §2 Payment, §7 /payment/*, §9) -----------------------
  // The rules are the payment decider's; the facts are gathered by PaymentCommands (payments.ts).

  /**
   * Orders the participation fee or a donation for the acting participant (spec §7 POST
   * /payment/order), or with `forTeam` a company team's fee for every unpaid member (issue 14):
   * PaymentCommands.orderPayment.
   * @throws DomainError FORBIDDEN, NOT_SELECTED, AMOUNT_NOT_MATCH, ALREADY_PAID_FOR, AMOUNT_TOO_LOW,
   *   INVALID_REQUEST.
   */
  orderPayment(input: PaymentOrderInput, request: CommandRequest): Promise<{ order: PaymentOrderView; position: number }> {
    return this.payments.orderPayment(input, request);
  }

  /** A payment order from its stream. @throws DomainError NOT_FOUND for an unknown order. */
  paymentOrder(orderId: string): Promise<PaymentOrderView> {
    return this.payments.paymentOrder(orderId);
  }

  /**
   * Records what a verified provider notification (or return) says, as the system, marking paid
   * everyone a succeeded fee covers in the same append: PaymentCommands.recordPaymentOutcome.
   * @throws DomainError NOT_FOUND, INVALID_NOTIFICATION, CONCURRENCY_CONFLICT.
   */
  recordPaymentOutcome(outcome: PaymentOutcomeInput, request: { now?: Date } = {}): Promise<{ recorded: boolean; position: number; order: PaymentOrderView }> {
    return this.payments.recordPaymentOutcome(outcome, request);
  }

  /**
   * An administrator's refund of a paid order named by its reference or id (issue 14):
   * PaymentCommands.orderIdOf and refundPayment.
   * @throws DomainError FORBIDDEN, NOT_FOUND, INVALID_REQUEST, ORDER_NOT_PAID, INVALID_AMOUNT,
   *   REFUND_EXCEEDS_PAYMENT, VALUE_TOO_LONG, CONCURRENCY_CONFLICT.
   */
  async refundPayment(reference: string, input: RefundInput, request: CommandRequest): Promise<RefundResult> {
    return this.payments.refundPayment(await this.payments.orderIdOf(reference), input, request);
  }

  // ---- administrators (issue 6; spec §2 Admin, §7 /admin/*) ------------------------------------

  /**
   * Corrects a participant's full name (spec §7 PUT /admin/participant/{id} {id, full_name}).
   * The name is personal data (encrypted under participant-{id}).
   * @returns the position of ParticipantRenamed (0 when the name was already that).
   * @throws DomainError FORBIDDEN (not an administrator), NOT_FOUND (unknown or deleted),
   *   VALUE_TOO_LONG (over 32 characters, spec §5), INVALID_REQUEST (blank).
   */
  async renameParticipant(participantId: number, fullName: string, request: CommandRequest): Promise<{ position: number }> {
    const result = await handleCommand(this.deps.store, streams.participant(participantId), participantDecider,
      { type: 'RenameParticipant', data: { participantId, fullName } }, await this.context(request), request.metadata);
    return { position: result.repeated || result.events.length > 0 ? result.position : 0 };
  }

  /**
   * An administrator's change of a team (spec §7 PUT /admin/team/{id}): name, description, icon
   * (an already stored reference, or null to remove it), each undefined to keep. One append to
   * the team stream (TeamRenamed and/or TeamPublicAttributesChanged); a rename reserves the new
   * name in app.team_name_index (releasing the old one) in the transaction around the append.
   * @returns the team after the change and the position (0 when nothing changed).
   * @throws DomainError FORBIDDEN, NOT_FOUND (unknown or deleted team), TEAM_NAME_ALREADY_IN_USE,
   *   VALUE_TOO_LONG (name over 50, description over 256), INVALID_REQUEST, CONCURRENCY_CONFLICT.
   */
  async changeTeamAsAdmin(
    teamId: number,
    input: { teamName?: string; description?: string; icon?: string | null },
    request: CommandRequest,
  ): Promise<{ team: AdminTeamView; position: number }> {
    const previous = await priorCommand(this.deps.store, request.metadata);
    let position = previous ? await lastPositionOf(this.deps.store, previous) : 0;
    if (!previous) {
      const context = await this.context(request);
      const { teamName, description, icon } = input;
      const decision: StreamDecision = {
        stream: streams.team(teamId),
        decide: (recorded, ctx) => {
          let state = foldStream(teamDecider, recorded);
          const events: TeamEvent[] = [];
          if (teamName !== undefined) {
            const renamed = teamDecider.decide({ type: 'RenameTeam', data: { teamId, teamName } }, state, ctx);
            events.push(...renamed);
            state = renamed.reduce(teamDecider.evolve, state);
          }
          if (description !== undefined || icon !== undefined) {
            events.push(...teamDecider.decide({
              type: 'ChangeTeamPublicAttributes',
              data: { teamId, ...(description !== undefined ? { description } : {}), ...(icon !== undefined ? { icon } : {}) },
            }, state, ctx));
          }
          return events;
        },
      };
      const decided = await decideAcrossStreams(this.deps.store, [decision], context, request.metadata);
      const renames = decided.events.some((event) => event.type === 'TeamRenamed');
      const { directory } = this.deps;
      // Nothing to change may mean a twin of this request (another process) has just changed it.
      const twin = decided.events.length === 0 && request.metadata.requestFingerprint !== undefined
        ? await priorCommand(this.deps.store, request.metadata)
        : null;
      position = twin
        ? await lastPositionOf(this.deps.store, twin)
        : renames && directory
          ? await directory.transaction(async (tx) => {
            await tx.renameTeam(teamId, teamName!);
            return appendDecided(this.deps.store, decided);
          })
          : await appendDecided(this.deps.store, decided);
    }
    const team = await this.team(teamId);
    return { team: { id: teamId, team_name: team.teamName ?? '', description: team.description ?? '', icon: team.icon }, position };
  }

  /**
   * Deletes accounts for good (spec §7 PUT /admin/deleteentities/user; §2 "Deletion is
   * permanent"). For each user, in ONE atomic append across streams: UserDeleted, and when the
   * account has a participant, ParticipantDeleted and EntryDeleted for each of the participant's
   * live entries (found through `entriesOfParticipant`). In the same account-table transaction the
   * e-mail index row and the password hash are deleted and the tokens spent (the e-mail may
   * register again; login answers INVALID_CREDENTIALS). After the commit the person's key is
   * destroyed (`participant-{id}`, or `user-{userId}` for an account without participant), so
   * every stored copy of their name, e-mail and birth year reads null (D2). Every id is decided
   * before anything is written: one refused id refuses them all.
   *
   * Idempotent by command id: a repeat appends nothing and runs the erasure again (which repairs
   * a run that failed between the append and the erasure).
   * @returns how many accounts were deleted and the position of the append.
   * @throws DomainError FORBIDDEN (not an administrator, or the administrator's own account),
   *   NOT_FOUND (an unknown or already deleted account), CONCURRENCY_CONFLICT.
   */
  async deleteUsers(userIds: readonly string[], request: CommandRequest): Promise<{ count: number; position: number }> {
    const unique = [...new Set(userIds)];
    const people = await Promise.all(unique.map(async (userId): Promise<PersonToDelete> => {
      const account = foldStream(accountDecider, await this.deps.store.readStream(streams.user(userId)));
      return { userId, participantId: account.participantId };
    }));
    const position = await this.deletePeople(people, [], request);
    return { count: unique.length, position };
  }

  /**
   * Deletes teams for good (spec §7 PUT /admin/deleteentities/team). In ONE atomic append:
   * TeamDeleted for each team and, for each member (from `membersOfTeam`, each checked against
   * its stream), the user deletion of deleteUsers (UserDeleted, ParticipantDeleted, EntryDeleted).
   * In the account-table transaction the team's name is released (free for another team) and its
   * join codes revoked; the members' accounts are erased as in deleteUsers. A member's account is
   * found through the e-mail index (the participant stream holds the e-mail) and must name the
   * participant; a member without an account loses only the participant and its entries.
   * @returns how many teams were deleted and the position of the append.
   * @throws DomainError FORBIDDEN, NOT_FOUND (unknown or already deleted team), CONCURRENCY_CONFLICT.
   */
  async deleteTeams(teamIds: readonly number[], request: CommandRequest): Promise<{ count: number; position: number }> {
    const unique = [...new Set(teamIds)];
    const membersOfTeam = this.required(this.deps.membersOfTeam, 'membersOfTeam');
    const people: PersonToDelete[] = [];
    for (const teamId of unique) {
      for (const participantId of await membersOfTeam(teamId)) {
        const participant = foldStream(participantDecider, await this.deps.store.readStream(streams.participant(participantId)));
        // Only members of this team that are still alive (the read model may lag a deletion).
        if (!participant.exists || participant.deleted || participant.teamId !== teamId) continue;
        people.push({ userId: await this.accountOfParticipant(participantId, participant.email), participantId });
      }
    }
    const position = await this.deletePeople(people, unique, request);
    return { count: unique.length, position };
  }

  /** The account (user id) of a participant, through the e-mail index; null when it has none. */
  private async accountOfParticipant(participantId: number, email: string | null): Promise<string | null> {
    if (!this.deps.directory || email === null) return null;
    const userId = await this.deps.directory.userIdOfEmail(email);
    if (userId === null) return null;
    const account = foldStream(accountDecider, await this.deps.store.readStream(streams.user(userId)));
    return account.exists && !account.deleted && account.participantId === participantId ? userId : null;
  }

  /** The shared cascade of deleteUsers and deleteTeams: decide all, append once, then erase. */
  private async deletePeople(people: readonly PersonToDelete[], teamIds: readonly number[], request: CommandRequest): Promise<number> {
    const forget = this.required(this.deps.personalData, 'personalData');
    const context = await this.context(request);
    const at = new Date(context.now);
    const previous = await priorCommand(this.deps.store, request.metadata);
    let position = previous ? await lastPositionOf(this.deps.store, previous) : 0;
    const eraseTables = async (tx: AccountTransaction) => {
      for (const teamId of teamIds) await tx.releaseTeam(teamId, at);
      for (const person of people) if (person.userId !== null) await tx.eraseAccount(person.userId, at);
    };
    const { directory } = this.deps;
    if (!previous) {
      const decisions: StreamDecision[] = teamIds.map((teamId) =>
        streamDecision(streams.team(teamId), teamDecider, { type: 'DeleteTeam', data: { teamId } }));
      for (const person of people) decisions.push(...(await this.personDeletion(person)));
      const decided = await decideAcrossStreams(this.deps.store, decisions, context, request.metadata);
      position = directory
        ? await directory.transaction(async (tx) => {
          await eraseTables(tx);
          return appendDecided(this.deps.store, decided);
        })
        : await appendDecided(this.deps.store, decided);
    } else if (directory) {
      await directory.transaction(eraseTables);
    }
    for (const person of people) {
      await forget.forget(person.participantId !== null ? streams.participant(person.participantId) : streams.user(person.userId!));
    }
    return position;
  }

  /** The stream decisions that delete one person: account, participant, the participant's live entries. */
  private async personDeletion(person: PersonToDelete): Promise<StreamDecision[]> {
    const decisions: StreamDecision[] = [];
    if (person.userId !== null) {
      decisions.push(streamDecision(streams.user(person.userId), accountDecider, { type: 'DeleteUser', data: { userId: person.userId } }));
    }
    const { participantId } = person;
    if (participantId === null) return decisions;
    decisions.push(streamDecision(streams.participant(participantId), participantDecider, { type: 'DeleteParticipant', data: { participantId } }));
    const entriesOfParticipant = this.required(this.deps.entriesOfParticipant, 'entriesOfParticipant');
    for (const entryId of await entriesOfParticipant(participantId)) {
      const entry = foldStream(entryDecider, await this.deps.store.readStream(streams.entry(entryId)));
      if (entry.status !== 'active' || entry.participantId !== participantId) continue;
      decisions.push(streamDecision(streams.entry(entryId), entryDecider, { type: 'DeleteEntry', data: { entryId } }));
    }
    return decisions;
  }

  private required<T>(dependency: T | undefined, name: string): T {
    if (dependency === undefined) throw new Error(`CommandService: ${name} is needed to delete users and teams`);
    return dependency;
  }

  /** The current view of an entry from its stream. */
  private async entryView(entryId: number): Promise<EntryView> {
    const events = await this.deps.store.readStream(streams.entry(entryId));
    const added = events.find((e) => e.type === 'EntryAdded');
    if (!added) throw new DomainError('NOT_FOUND', `entry ${entryId}`);
    let view = viewOfAdded({ type: 'EntryAdded', data: added.data as EntryAdded['data'] });
    for (const event of events) {
      if (event.type === 'EntryEdited') {
        const data = event.data as EntryEdited['data'];
        view = { ...view, participant_id: data.participantId, distance: data.distance, entry_type: data.entryType, performed_at: data.performedAt };
      }
    }
    return view;
  }
}

function viewOfAdded(event: EntryAdded): EntryView {
  return {
    id: event.data.entryId,
    team_id: event.data.teamId,
    participant_id: event.data.participantId,
    distance: event.data.distance,
    entry_type: event.data.entryType,
    performed_at: event.data.performedAt,
    created_at: event.data.createdAt,
  };
}
