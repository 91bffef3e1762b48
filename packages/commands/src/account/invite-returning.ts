/**
 * A re-opened team invites its earlier members back (POST /api/team/{id}/invite-returning;
 * docs/decisions/0083): every member of the earlier team the new one `continues` who has not
 * joined the new team's edition gets a mail in their own language (their account's, else
 * Estonian) with the new team's join code and a login link. Nothing is appended: an invitation
 * changes nobody's state, and sending it again only mails again.
 *
 * The earlier team's members are found in the log itself (ParticipantRegistered by `teamId`,
 * EventStore.readEvents), each checked against its own stream; a member's account through the
 * e-mail index. A member erased since has no e-mail and is not mailed.
 */
import {
  DomainError,
  isPrivileged,
  streams,
  type TeamRegistered,
} from '@sinilill/domain';
import { returningInvitationMail } from '@sinilill/mail';
import { editionSourceOf, participantState, teamState } from '../context';
import type { CommandRequest } from '../metadata';
import { accountState, type AccountDeps } from './shared';

/**
 * Mails the earlier members of team `teamId` (see the module's comment).
 * @returns how many mails went out (a mail that could not be sent is reported to onMailError and
 *   not counted).
 * @throws DomainError NOT_FOUND (unknown or deleted team), FORBIDDEN (the actor is neither a
 *   member of the team nor an administrator), INVALID_REQUEST (the team continues no earlier team).
 */
export async function inviteReturning(deps: AccountDeps, teamId: number, request: CommandRequest): Promise<{ invited: number }> {
  const { store, directory } = deps;
  const team = await teamState(store, teamId);
  if (!team.exists || team.deleted || team.edition === null) throw new DomainError('NOT_FOUND', `team ${teamId}`);
  const { actor } = request;
  if (!isPrivileged(actor)) {
    // The team is read from the log, not trusted from the token's claims.
    const me = actor.participantId !== null ? await participantState(store, actor.participantId) : null;
    if (!me?.exists || me.deleted || me.teamId !== teamId) throw new DomainError('FORBIDDEN', `not a member of team ${teamId}`);
  }
  const registered = (await store.readStream(streams.team(teamId))).find((event) => event.type === 'TeamRegistered');
  const continues = (registered?.data as TeamRegistered['data'] | undefined)?.continues;
  if (continues === undefined) throw new DomainError('INVALID_REQUEST', `team ${teamId} continues no earlier team`);
  const earlierTeam = await teamState(store, continues);
  const catalog = await editionSourceOf(deps).catalog();
  const nameOf = (year: number | null) => (year !== null ? catalog.get(year)?.edition.name : undefined) ?? { et: `Sinilill ${year}`, en: `Sinilill ${year}` };
  const members = await store.readEvents({ types: ['ParticipantRegistered'], data: [{ field: 'teamId', values: [continues] }] });
  let invited = 0;
  for (const event of members) {
    const member = await participantState(store, (event.data as { participantId: number }).participantId);
    if (!member.exists || member.deleted || member.teamId !== continues || member.email === null) continue;
    const userId = await directory.userIdOfEmail(member.email);
    const account = userId !== null ? await accountState(store, userId) : null;
    if (account && (!account.exists || account.deleted)) continue;
    // The account names the participant of the latest edition the person joined.
    const latest = account?.participantId != null ? await participantState(store, account.participantId) : null;
    if (latest?.edition != null && latest.edition >= team.edition) continue;
    const mail = returningInvitationMail(
      { email: member.email, fullName: member.fullName ?? '' },
      {
        teamName: team.teamName ?? '', joinCode: team.joinCode ?? '', edition: nameOf(team.edition), earlierEdition: nameOf(earlierTeam.edition),
        login: `${deps.publicUrl}/login`,
      },
      account?.lang ?? 'est',
    );
    try {
      await deps.mailer.send(mail);
      invited++;
    } catch (error) {
      deps.onMailError?.(error, 'invitation');
    }
  }
  return { invited };
}
