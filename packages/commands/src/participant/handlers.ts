/**
 * Participant commands: the importer's RegisterParticipant (with the person's account when there
 * is an AccountDirectory) and an administrator's rename (spec §7 PUT /admin/participant/{id}),
 * each on the write path (execute-command.ts). The paid flag is the payment handler's
 * (payment.ts, markPayment).
 */
import { accountDecider, isPrivileged, participantDecider, streams, type DecisionContext, type RegisterParticipant } from '@sinilill/domain';
import { handleCommand } from '../execute-command';
import { deterministicUuid, idOfStream, type CommandMetadata, type CommandRequest } from '../metadata';
import { lastPositionOf, priorCommand } from '../repeats';
import { readSettings } from '../settings/settings-cache';
import { decisionContext, type CommandServiceDependencies } from '../context';

/** A participant as the importer registers them: the domain's RegisterParticipant data, its id drawn when absent (spec §3 participant; birth year, gender for the fee and the stats). */
export type ParticipantRegistration = Omit<RegisterParticipant['data'], 'participantId'> & { participantId?: number };

/**
 * Registers a participant into a team (importer). With a directory, also the participant's
 * account: approved and without a password when the system (the importer) or an administrator
 * registers them, so that the 2025 people set a password through forgot-password. Its id derives
 * from the command id, so a repeated command finds the same account and the same e-mail
 * reservation.
 * @throws DomainError EMAIL_ALREADY_IN_USE (another account has the e-mail), and the
 *   participant and account deciders' codes.
 */
export async function registerParticipant(
  deps: CommandServiceDependencies,
  input: ParticipantRegistration,
  request: CommandRequest,
): Promise<{ participantId: number; position: number }> {
  const previous = await priorCommand(deps.store, request.metadata);
  const participantId = previous?.type === 'ParticipantRegistered'
    ? idOfStream(previous.stream)
    : input.participantId ?? (await deps.ids.next('participant'));
  const { participantId: _ignored, ...rest } = input;
  const context = await decisionContext(deps, request);
  const result = await handleCommand(deps.store, streams.participant(participantId), participantDecider,
    { type: 'RegisterParticipant', data: { ...rest, participantId } },
    context, request.metadata, { previous });
  if (!deps.directory) return { participantId: idOfStream(result.stream), position: result.position };
  const account = await registerParticipantAccount(deps, participantId, input, context, request);
  return { participantId: idOfStream(result.stream), position: Math.max(result.position, account.position) };
}

/** The account of a participant registered through registerParticipant (command `<id>:account`). */
async function registerParticipantAccount(
  deps: CommandServiceDependencies,
  participantId: number,
  input: { fullName: string; email: string },
  context: DecisionContext,
  request: CommandRequest,
): Promise<{ userId: string; position: number }> {
  const { store } = deps;
  const directory = deps.directory!;
  const metadata: CommandMetadata = { ...request.metadata, commandId: `${request.metadata.commandId}:account` };
  const userId = deterministicUuid(`account:${metadata.commandId}`);
  const previous = await priorCommand(store, metadata);
  if (previous) return { userId, position: await lastPositionOf(store, previous) };
  const privileged = isPrivileged(request.actor);
  const registrationEnabled = privileged || (await readSettings(store)).registrationEnabled;
  const result = await directory.transaction(async (tx) => {
    await tx.reserveEmail(input.email, userId);
    return handleCommand(store, streams.user(userId), accountDecider, {
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
 * Corrects a participant's full name (spec §7 PUT /admin/participant/{id} {id, full_name}).
 * The name is personal data (encrypted under participant-{id}).
 * @returns the position of ParticipantRenamed (0 when the name was already that).
 * @throws DomainError FORBIDDEN (not an administrator), NOT_FOUND (unknown or deleted),
 *   VALUE_TOO_LONG (over 32 characters, spec §5), INVALID_REQUEST (blank).
 */
export async function renameParticipant(
  deps: CommandServiceDependencies,
  participantId: number,
  fullName: string,
  request: CommandRequest,
): Promise<{ position: number }> {
  const result = await handleCommand(deps.store, streams.participant(participantId), participantDecider,
    { type: 'RenameParticipant', data: { participantId, fullName } }, await decisionContext(deps, request), request.metadata);
  return { position: result.repeated || result.events.length > 0 ? result.position : 0 };
}
