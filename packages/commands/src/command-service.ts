/**
 * The application's team, participant, entry, payment and deletion commands behind one object,
 * shared by the command API and the importer (the importer passes the old system's original times
 * and ids and marks its metadata `imported`). A thin facade: each method is a
 * handler of <aggregate>/handlers.ts on the one write path (execute-command.ts), which reads,
 * decides with the pure deciders, appends atomically, retries on a conflict and runs the
 * after-commit hooks. Authorization and validation are the deciders' (spec §5, §6, §8).
 *
 * Every command is idempotent by its command id (docs/decisions/0007): a repeat answers as the first run did and
 * appends nothing; a repeat with another request fingerprint is IDEMPOTENCY_KEY_REUSED. The
 * command API runs keyed requests through `idempotent`, which makes a retry wait for a first
 * request that is still running. Each command answers the global position of its last appended
 * event, for read-your-writes (`x-min-position`), and throws DomainError with a catalogue code
 * (spec §8) on refusal.
 */
import { DomainError, accountDecider, streams, type ActingUser, type EditionCatalog, type EditionRecord, type ParticipantState, type TeamState } from '@sinilill/domain';
import { foldStream } from './metadata';
import type { CommandRequest } from './metadata';
import { CommandRepeats } from './repeats';
import { participantState, resolveActor, teamOfParticipant, teamState, type CommandServiceDependencies } from './context';
import { deleteTeams, deleteUsers } from './deletion/handlers';
import { eraseOwnAccount } from './deletion/self-erasure';
import { commitDraw, revealDraw } from './draw/handlers';
import { changeEdition, closeEdition, openEdition, planEdition } from './edition/handlers';
import { editionSourceOf } from './context';
import { addEntry, deleteEntries, editEntry, reviewEntries, stravaActivityStanding, type EntryInput, type EntrySourceInput, type EntryView, type StravaActivityStanding } from './entry/handlers';
import { activityFileInUse, addFileEntries, type FileEntriesInput } from './entry/file-entries';
import { registerParticipant, renameParticipant, type ParticipantRegistration } from './participant/handlers';
import { PaymentCommands } from './payment/handlers';
import type { PaymentOrderInput, PaymentOrderView, PaymentOutcomeInput, RefundInput, RefundResult } from './payment/types';
import { changeTeamAsAdmin, changeTeamPublicAttributes, registerTeam, replaceJoinCode, type AdminTeamView } from './team/handlers';

export type { CommandRequest } from './metadata';
export type { CommandServiceDependencies } from './context';
export type { EchoedEntryFields, EntryInput, EntrySourceInput, EntryView } from './entry/handlers';
export type { FileEntriesInput, FileEntryPart } from './entry/file-entries';
export type { ParticipantRegistration } from './participant/handlers';
export type { AdminTeamView } from './team/handlers';

/** How many participants' teams resolveActor remembers before it starts again (memory bound). */
const TEAM_OF_ACTOR_LIMIT = 100_000;

/** The team, participant, entry, payment and admin commands (see the module's comment). */
export class CommandService {
  /** Keyed requests in this process (see idempotent). */
  private readonly repeats: CommandRepeats;

  /** The payment commands (payment/handlers.ts), over the same store and clock. */
  private readonly payments: PaymentCommands;

  /** Live participants' teams, remembered by resolveActor (participant id → team id). */
  private readonly teamOfActor = new Map<number, number>();

  constructor(private readonly deps: CommandServiceDependencies) {
    this.repeats = new CommandRepeats(deps.store);
    this.payments = new PaymentCommands(deps);
  }

  /**
   * Runs one keyed request's command (`run`, a call of this service or the AccountService with
   * `request`) so that a repeat of it answers what the first run answered: CommandRepeats.idempotent
   * (same command id: one after another in this process; IDEMPOTENCY_KEY_REUSED for another
   * request under the key; a twin that won a race is answered as a repeat).
   * @throws whatever `run` throws; DomainError('IDEMPOTENCY_KEY_REUSED').
   */
  idempotent<T>(request: CommandRequest, run: () => Promise<T>, options: { checkedByCommand?: boolean } = {}): Promise<T> {
    return this.repeats.idempotent(request.metadata, run, options);
  }

  /** The configured clock's instant (what decisions take as now, and the phases of the editions). */
  now(): Date {
    return this.deps.now();
  }

  /** The editions as this service knows them (EditionCatalog: current, next, by year). */
  editions(): Promise<EditionCatalog> {
    return editionSourceOf(this.deps).catalog();
  }

  /** Plans an edition from its data (admins; edition/handlers.ts for the codes). */
  planEdition(edition: unknown, request: CommandRequest): Promise<{ position: number; record: EditionRecord }> {
    return planEdition(this.deps, edition, request);
  }

  /** Replaces a not yet closed edition's data (admins). */
  changeEdition(year: number, edition: unknown, request: CommandRequest): Promise<{ position: number; record: EditionRecord }> {
    return changeEdition(this.deps, year, edition, request);
  }

  /** Announces an edition: its registration opens on its date (admins). */
  openEdition(year: number, request: CommandRequest): Promise<{ position: number; record: EditionRecord }> {
    return openEdition(this.deps, year, request);
  }

  /** Closes an edition after its late-entry deadline: read-only, archived (admins). */
  closeEdition(year: number, request: CommandRequest): Promise<{ position: number; record: EditionRecord }> {
    return closeEdition(this.deps, year, request);
  }

  /** The team a participant belongs to, from the participant's stream; null when unknown or deleted. */
  async participantTeam(participantId: number): Promise<number | null> {
    return teamOfParticipant(await participantState(this.deps.store, participantId));
  }

  /**
   * The acting user with the team read from the event log (not trusted from the token). A
   * participant's team never changes (no event moves a participant), and a deletion ends the
   * person's sessions before any later request passes authentication, so a live participant's
   * team is remembered in this process (no read of the stream per request); a
   * participant without a live team is read every time.
   */
  async resolveActor(actor: ActingUser): Promise<ActingUser> {
    if (actor.role === 'USER' && actor.participantId !== null) {
      const teamId = this.teamOfActor.get(actor.participantId);
      if (teamId !== undefined) return { ...actor, teamId };
    }
    const resolved = await resolveActor(this.deps.store, actor);
    if (resolved.role === 'USER' && resolved.participantId !== null && resolved.teamId !== null) {
      if (this.teamOfActor.size >= TEAM_OF_ACTOR_LIMIT) this.teamOfActor.clear();
      this.teamOfActor.set(resolved.participantId, resolved.teamId);
    }
    return resolved;
  }

  /** The participant's state from its stream (`exists` false for an unknown participant). */
  participant(participantId: number): Promise<ParticipantState> {
    return participantState(this.deps.store, participantId);
  }

  /** The team's state from its stream (`exists` false for an unknown team). */
  team(teamId: number): Promise<TeamState> {
    return teamState(this.deps.store, teamId);
  }

  /** Registers a team (importer): team/handlers.ts registerTeam. @throws DomainError TEAM_NAME_ALREADY_IN_USE, INVALID_JOIN_CODE, the team decider's codes. */
  registerTeam(
    input: { teamId?: number; teamName: string; description: string; joinCode: string; icon: string | null; company?: boolean },
    request: CommandRequest,
  ): Promise<{ teamId: number; position: number }> {
    return registerTeam(this.deps, input, request);
  }

  /** Registers a participant and their account (importer): participant/handlers.ts. @throws DomainError EMAIL_ALREADY_IN_USE, the deciders' codes. */
  registerParticipant(input: ParticipantRegistration, request: CommandRequest): Promise<{ participantId: number; position: number }> {
    return registerParticipant(this.deps, input, request);
  }

  /**
   * Sets a participant's paid flag (admin, importer): PaymentCommands.markPayment (an admin's mark
   * records the fee due as money verified by hand).
   * @throws DomainError FORBIDDEN, NOT_FOUND, INVALID_REQUEST.
   */
  markPayment(participantId: number, isPaid: boolean, request: CommandRequest): Promise<{ position: number }> {
    return this.payments.markPayment(participantId, isPaid, request);
  }

  /**
   * Logs a distance (spec §7 POST /entry; with a file source, POST /team/{id}/activity-files/confirm):
   * entry/handlers.ts. @throws DomainError NOT_FOUND, FORBIDDEN, INVALID_*, the switch and deadline
   * codes, ACTIVITY_FILE_ALREADY_USED.
   */
  async addEntry(input: EntryInput & EntrySourceInput & { entryId?: number }, request: CommandRequest): Promise<{ entry: EntryView; position: number }> {
    const { source } = input;
    if (source?.kind !== 'file') return addEntry(this.deps, input, request);
    // A file's entry goes with its file's stream: a file of one part.
    const participantId = input.participantId ?? request.actor.participantId;
    if (participantId === null || participantId === undefined) throw new DomainError('NOT_FOUND', 'no participant given');
    const { entries: [entry], position } = await addFileEntries(this.deps, {
      participantId, format: source.format, sha256: source.sha256,
      parts: [{ distance: input.distance, entryType: input.entryType, performedAt: input.performedAt }],
    }, request);
    return { entry: entry!, position };
  }

  /**
   * An activity file's parts as entries of one member, with the file's use, in one atomic append
   * (POST /team/{id}/activity-files/confirm): entry/file-entries.ts. @throws DomainError as
   * addEntry for any part (then nothing is appended), ACTIVITY_FILE_ALREADY_USED.
   */
  addFileEntries(input: FileEntriesInput, request: CommandRequest): Promise<{ entries: EntryView[]; position: number }> {
    return addFileEntries(this.deps, input, request);
  }

  /** Whether an activity file (SHA-256 of its bytes) counts for a live entry now (any entry of its last use). */
  activityFileInUse(sha256: string): Promise<boolean> {
    return activityFileInUse(this.deps, sha256);
  }

  /**
   * The participant of the latest edition the account joined (a returning person is a new
   * participant each edition), or null: no such live account, or one without a participant.
   */
  async currentParticipantOf(userId: string): Promise<number | null> {
    const account = foldStream(accountDecider, await this.deps.store.readStream(streams.user(userId)));
    return account.exists && !account.deleted ? account.participantId : null;
  }

  /** Where a Strava activity stands: the entry that counts it, live or not, edited by its member or not. */
  stravaActivity(activityId: number): Promise<StravaActivityStanding> {
    return stravaActivityStanding(this.deps, activityId);
  }

  /** Changes an entry (spec §7 PUT /entry/{id}/edit): entry/handlers.ts. @throws DomainError NOT_FOUND, FORBIDDEN, INVALID_*, IDEMPOTENCY_KEY_REUSED. */
  editEntry(entryId: number, input: EntryInput, request: CommandRequest, options: { stravaActivityId?: number } = {}): Promise<{ entry: EntryView; position: number }> {
    return editEntry(this.deps, entryId, input, request, options);
  }

  /** Deletes entries in one atomic append (spec §7 PUT /entry/delete). @throws DomainError NOT_FOUND, FORBIDDEN, CONCURRENCY_CONFLICT. */
  deleteEntries(entryIds: readonly number[], request: CommandRequest): Promise<{ count: number; position: number }> {
    return deleteEntries(this.deps, entryIds, request);
  }

  /**
   * Approves or rejects flagged entries in one atomic append: entry/handlers.ts.
   * @throws DomainError FORBIDDEN, NOT_FOUND, ENTRY_NOT_UNDER_REVIEW, INVALID_REQUEST, VALUE_TOO_LONG.
   */
  reviewEntries(input: { entryIds: readonly number[]; decision: 'approve' | 'reject'; note: string }, request: CommandRequest): Promise<{ count: number; position: number }> {
    return reviewEntries(this.deps, input, request);
  }

  /** Changes the team's public card (spec §7 PUT /team/{id}/publicattributes); position 0 when nothing changed. */
  changeTeamPublicAttributes(
    teamId: number,
    input: { icon?: string | null; description?: string },
    request: CommandRequest,
  ): Promise<{ team: { id: number; icon: string | null; description: string }; position: number }> {
    return changeTeamPublicAttributes(this.deps, teamId, input, request);
  }

  /** A new join code for the team (spec §7 GET /team/{id}/newcode). @throws DomainError NOT_FOUND, FORBIDDEN, CONCURRENCY_CONFLICT. */
  replaceJoinCode(teamId: number, request: CommandRequest): Promise<{ code: string; createdAt: string; position: number }> {
    return replaceJoinCode(this.deps, teamId, request);
  }

  /**
   * Orders the participation fee or a donation (spec §7 POST /payment/order), or with `forTeam` a
   * company team's fee for every unpaid member: PaymentCommands.orderPayment.
   * @throws DomainError FORBIDDEN, NOT_SELECTED, AMOUNT_NOT_MATCH, ALREADY_PAID_FOR, AMOUNT_TOO_LOW, INVALID_REQUEST.
   */
  orderPayment(input: PaymentOrderInput, request: CommandRequest): Promise<{ order: PaymentOrderView; position: number }> {
    return this.payments.orderPayment(input, request);
  }

  /** A payment order from its stream. @throws DomainError NOT_FOUND for an unknown order. */
  paymentOrder(orderId: string): Promise<PaymentOrderView> {
    return this.payments.paymentOrder(orderId);
  }

  /**
   * Records a verified provider notification, marking paid everyone a succeeded fee covers in the
   * same append: PaymentCommands.recordPaymentOutcome.
   * @throws DomainError NOT_FOUND, INVALID_NOTIFICATION, CONCURRENCY_CONFLICT.
   */
  recordPaymentOutcome(outcome: PaymentOutcomeInput, request: { now?: Date } = {}): Promise<{ recorded: boolean; position: number; order: PaymentOrderView }> {
    return this.payments.recordPaymentOutcome(outcome, request);
  }

  /**
   * An administrator's refund of a paid order named by its reference or id.
   * @throws DomainError FORBIDDEN, NOT_FOUND, INVALID_REQUEST, ORDER_NOT_PAID, INVALID_AMOUNT,
   *   REFUND_EXCEEDS_PAYMENT, VALUE_TOO_LONG, CONCURRENCY_CONFLICT.
   */
  async refundPayment(reference: string, input: RefundInput, request: CommandRequest): Promise<RefundResult> {
    return this.payments.refundPayment(await this.payments.orderIdOf(reference), input, request);
  }

  /** Corrects a participant's full name (spec §7 PUT /admin/participant/{id}); position 0 when unchanged. */
  renameParticipant(participantId: number, fullName: string, request: CommandRequest): Promise<{ position: number }> {
    return renameParticipant(this.deps, participantId, fullName, request);
  }

  /** An administrator's change of a team (spec §7 PUT /admin/team/{id}): team/handlers.ts; position 0 when unchanged. */
  changeTeamAsAdmin(
    teamId: number,
    input: { teamName?: string; description?: string; icon?: string | null },
    request: CommandRequest,
  ): Promise<{ team: AdminTeamView; position: number }> {
    return changeTeamAsAdmin(this.deps, teamId, input, request);
  }

  /** Deletes accounts for good, one atomic append (spec §7 PUT /admin/deleteentities/user): deletion/handlers.ts. */
  deleteUsers(userIds: readonly string[], request: CommandRequest): Promise<{ count: number; position: number }> {
    return deleteUsers(this.deps, userIds, request);
  }

  /**
   * The acting participant erases their own account with their password:
   * deletion/self-erasure.ts; the administrator's deletion, entries kept.
   * @throws DomainError UNAUTHORIZED, INVALID_PASSWORD, FORBIDDEN, NOT_FOUND, CONCURRENCY_CONFLICT.
   */
  eraseOwnAccount(password: string, request: CommandRequest): Promise<{ position: number }> {
    return eraseOwnAccount(this.deps, password, request);
  }

  /** Deletes teams and their members for good, one atomic append (spec §7 PUT /admin/deleteentities/team): deletion/handlers.ts. */
  deleteTeams(teamIds: readonly number[], request: CommandRequest): Promise<{ count: number; position: number }> {
    return deleteTeams(this.deps, teamIds, request);
  }

  /** Publishes the prize draw's commitment (administrators) of edition `year`, default the current one: draw.ts commitDraw. */
  commitDraw(input: { commitment: string; drawAt: string; winners: number }, request: CommandRequest, year?: number): Promise<{ position: number }> {
    return commitDraw(this.deps, input, request, year);
  }

  /** Reveals the seed and draws the winners (administrators) of edition `year`, default the current one: draw.ts revealDraw. */
  revealDraw(input: { seed: string }, request: CommandRequest, year?: number): Promise<{ position: number }> {
    return revealDraw(this.deps, input, request, year);
  }
}
