/**
 * Team commands (spec §2 team page, §7 PUT /team/{id}/publicattributes, GET /team/{id}/newcode,
 * PUT /admin/team/{id}; the importer's RegisterTeam), each on the write path
 * (execute-command.ts) with the team decider. With an AccountDirectory, what must be
 * unique (team names, join codes) is reserved in a transaction around the append.
 */
import { DomainError, streams, teamDecider, type JoinCodeReplaced, type TeamEvent, type TeamRegistered } from '@sinilill/domain';
import type { AccountTransaction } from '../account/directory';
import { newJoinCode } from '../account/secrets';
import { executeCommand, handleCommand } from '../execute-command';
import { idOfStream, type CommandRequest } from '../metadata';
import { lastPositionOf, priorCommand } from '../repeats';
import { changeContext, decisionContext, teamState, type CommandServiceDependencies } from '../context';

/** A team as the admin's PUT /admin/team/{id} answers it. */
export interface AdminTeamView {
  id: number;
  team_name: string;
  description: string;
  icon: string | null;
}

/**
 * Registers a team (importer; the API registers teams with their captain through
 * registerTeamWithCaptain). With a directory, the name and join code go into the indexes in the
 * same transaction as the append; a repeat re-asserts them (same owner) and appends nothing.
 * @throws DomainError TEAM_NAME_ALREADY_IN_USE (name taken by another team, compared trimmed,
 *   NFKC, case-insensitively), INVALID_JOIN_CODE (join code taken by another team), and the
 *   team decider's codes.
 */
export async function registerTeam(
  deps: CommandServiceDependencies,
  input: { teamId?: number; teamName: string; description: string; joinCode: string; icon: string | null; company?: boolean },
  request: CommandRequest,
): Promise<{ teamId: number; position: number }> {
  const previous = await priorCommand(deps.store, request.metadata);
  const teamId = previous?.type === 'TeamRegistered'
    ? (previous.data as TeamRegistered['data']).teamId
    : input.teamId ?? (await deps.ids.next('team'));
  const context = await decisionContext(deps, request);
  const register = () => handleCommand(deps.store, streams.team(teamId), teamDecider,
    { type: 'RegisterTeam', data: { teamId, teamName: input.teamName, description: input.description, joinCode: input.joinCode, icon: input.icon, ...(input.company === true ? { company: true } : {}) } },
    context, request.metadata, { previous });
  const { directory } = deps;
  const result = !directory ? await register() : await directory.transaction(async (tx) => {
    // The names and codes are unique within the edition the team is registered into.
    const edition = context.edition?.year;
    if (edition === undefined) throw new DomainError('REGISTRATION_NOT_OPEN', 'no edition has been planned and opened');
    await tx.reserveTeamName(input.teamName, teamId, edition);
    if (!(await tx.reserveJoinCode(input.joinCode, teamId, null, new Date(context.now), edition))) {
      throw new DomainError('INVALID_JOIN_CODE', `join code ${input.joinCode} belongs to another team`);
    }
    return register();
  });
  return { teamId: idOfStream(result.stream), position: result.position };
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
export async function changeTeamPublicAttributes(
  deps: CommandServiceDependencies,
  teamId: number,
  input: { icon?: string | null; description?: string },
  request: CommandRequest,
): Promise<{ team: { id: number; icon: string | null; description: string }; position: number }> {
  // A team's edition never changes: read before the decision; a closed edition's team is read-only.
  const context = await changeContext(deps, request, (await teamState(deps.store, teamId)).edition);
  const result = await handleCommand(deps.store, streams.team(teamId), teamDecider,
    { type: 'ChangeTeamPublicAttributes', data: { teamId, ...input } },
    context, request.metadata);
  const team = await teamState(deps.store, teamId);
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
export async function replaceJoinCode(
  deps: CommandServiceDependencies,
  teamId: number,
  request: CommandRequest,
): Promise<{ code: string; createdAt: string; position: number }> {
  const { store, directory } = deps;
  const previous = await priorCommand(store, request.metadata);
  if (previous?.type === 'JoinCodeReplaced') {
    const data = previous.data as JoinCodeReplaced['data'];
    return { code: data.joinCode, createdAt: data.replacedAt, position: await lastPositionOf(store, previous) };
  }
  const team = await teamState(store, teamId);
  // Refuse a stranger or an unknown team before touching the join-code table (pure decision).
  teamDecider.decide({ type: 'ReplaceJoinCode', data: { teamId, joinCode: newJoinCode() } }, team, await decisionContext(deps, request));
  // A closed edition's team keeps its code: nobody joins an archived team.
  const context = await changeContext(deps, request, team.edition);
  const replace = (joinCode: string) => handleCommand(store, streams.team(teamId), teamDecider,
    { type: 'ReplaceJoinCode', data: { teamId, joinCode } }, context, request.metadata, { previous: null });
  const result = !directory ? await replace(newJoinCode()) : await directory.transaction(async (tx) => {
    const at = new Date(context.now);
    await tx.revokeJoinCodes(teamId, at);
    let code = newJoinCode();
    while (!(await tx.addJoinCode(code, teamId, at, team.edition!))) code = newJoinCode();
    return replace(code);
  });
  const replaced = result.events[0] as JoinCodeReplaced;
  return { code: replaced.data.joinCode, createdAt: replaced.data.replacedAt, position: result.position };
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
export async function changeTeamAsAdmin(
  deps: CommandServiceDependencies,
  teamId: number,
  input: { teamName?: string; description?: string; icon?: string | null },
  request: CommandRequest,
): Promise<{ team: AdminTeamView; position: number }> {
  const { store, directory } = deps;
  const { teamName, description, icon } = input;
  const stream = streams.team(teamId);
  // The transaction around the attempts, when a rename may need the name index.
  let tx: AccountTransaction | null = null;
  // The team's edition as the decision read it: its name is unique within that edition.
  let edition: number | null = null;
  const outcome = await executeCommand(store, {
    streams: [stream],
    // A closed edition's team is read-only for administrators too (the archive shows it as it ended).
    context: await changeContext(deps, request, (await teamState(store, teamId)).edition),
    metadata: request.metadata,
    decide: (read, ctx) => {
      let state = read.fold(stream, teamDecider);
      edition = state.edition;
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
      return [{ stream, events }];
    },
    ...(directory && teamName !== undefined ? {
      within: (attempts) => directory.transaction((open) => {
        tx = open;
        return attempts();
      }),
      beforeAppend: async (events) => {
        if (tx && edition !== null && events.some((event) => event.type === 'TeamRenamed')) await tx.renameTeam(teamId, teamName, edition);
      },
    } : {}),
  });
  const team = await teamState(store, teamId);
  return { team: { id: teamId, team_name: team.teamName ?? '', description: team.description ?? '', icon: team.icon }, position: outcome.position };
}
