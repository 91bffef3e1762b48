/**
 * The admin console's edit forms and deletions (spec §2 "Admin", §5 "Admin participant name max
 * 32; team name 50; description 256"): the client-side checks, which mirror the server's, and the
 * request bodies.
 */
import type { AdminTeamBody } from '@sinilill/contracts';
import { checkText, limits, type FieldProblems } from '../../../lib/form-validation';
import type { TeamRow } from './rows';

/** The users tab's edit form: the participant's full name (required, at most 32 characters). */
export function checkFullName(value: string): FieldProblems<'full_name'> {
  const problem = checkText(value, { max: limits.fullNameMax });
  return problem ? { full_name: problem } : {};
}

/** The teams tab's edit form. */
export interface TeamDraft {
  /** Team name (required, at most 50 characters). */
  team_name: string;
  /** Optional, at most 256 characters. */
  description: string;
  /** The picture: the team's current reference, a new data URL, or null (deleted). */
  icon: string | null;
}

export type TeamDraftField = 'team_name' | 'description';

/** The fields of the team form, in the order shown (the first one with a problem gets the focus). */
export const TEAM_DRAFT_FIELDS: readonly TeamDraftField[] = ['team_name', 'description'];

/** The form as it opens for `team`. */
export function teamDraft(team: Pick<TeamRow, 'name' | 'description' | 'icon'>): TeamDraft {
  return { team_name: team.name, description: team.description, icon: team.icon };
}

/** What is wrong with the team form, by field (empty when it may be sent). */
export function checkTeamDraft(draft: TeamDraft): FieldProblems<TeamDraftField> {
  const problems: FieldProblems<TeamDraftField> = {};
  const name = checkText(draft.team_name, { max: limits.teamNameMax });
  const description = checkText(draft.description, { max: limits.descriptionMax, required: false });
  if (name) problems.team_name = name;
  if (description) problems.description = description;
  return problems;
}

/**
 * PUT /api/admin/team/{id}'s body for the form (spec §7 {id, team_name, description, icon}): name
 * and description trimmed; `icon` only when it changed — a new data URL, or null to delete the
 * picture (absent fields stay as they are).
 */
export function teamBody(team: Pick<TeamRow, 'id' | 'icon'>, draft: TeamDraft): AdminTeamBody {
  const body: AdminTeamBody = { id: team.id, team_name: draft.team_name.trim(), description: draft.description.trim() };
  if (draft.icon !== team.icon) body.icon = draft.icon;
  return body;
}

/** Most ids PUT /api/admin/deleteentities takes at once (contracts: AdminDeleteEntitiesBody maxItems). */
export const DELETE_BATCH_MAX = 500;

/** `ids` cut into consecutive batches of at most `size` (none for no ids). */
export function batches<T>(ids: readonly T[], size: number = DELETE_BATCH_MAX): T[][] {
  const step = Math.max(1, Math.floor(size));
  const out: T[][] = [];
  for (let start = 0; start < ids.length; start += step) out.push(ids.slice(start, start + step));
  return out;
}
