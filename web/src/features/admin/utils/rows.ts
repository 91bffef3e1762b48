/**
 * The admin console's table rows (spec §2 "Admin", §3 "User (admin view)", "Team", "Entry"), made
 * flat from the rows of GET /api/admin/users, /teams and /entries (one page each; the same shapes
 * as /userdata, /teamdata and /entrydata). Personal data is null once a person is erased (the
 * tables show a dash or "deleted" for it). The answers' own order is kept: the server sorts.
 */
import type { AdminEntry, AdminTeam, AdminUser } from '@sinilill/contracts';
import { matchesSearch, normalizeSearchText } from '../../../components/ui/data-table/table-values';
import { instantMs } from './format';

/** One account in the users tab. */
export interface UserRow {
  /** The account id (UUID): the row id, what PUT /admin/user/{id} and deleting users take. */
  id: string;
  /** Null once erased. */
  email: string | null;
  /** The participant's full name; null once erased or for an account without a participant. */
  fullName: string | null;
  /** The participant's team; null without one. */
  teamName: string | null;
  /** What PUT /admin/participant/{id} takes; null for an account without a participant (an admin). */
  participantId: number | null;
  /** The participant's fee is paid; null without a participant (nothing to toggle). */
  isPaid: boolean | null;
  isApproved: boolean;
  /** ISO instant: when the participant registered, else when the account was made. */
  createdAt: string;
  /** createdAt in ms for sorting; null when unreadable. */
  createdMs: number | null;
}

/** The users tab's rows (spec §2 "Users"). */
export function userRows(users: readonly AdminUser[]): UserRow[] {
  return users.map((user) => {
    const participant = user.participant;
    const createdAt = participant?.created_at ?? user.created_at;
    return {
      id: user.id,
      email: user.email,
      fullName: participant?.full_name ?? null,
      teamName: participant?.team?.team_name ?? null,
      participantId: participant?.id ?? user.participant_id ?? null,
      isPaid: participant ? participant.is_paid : null,
      isApproved: user.is_approved,
      createdAt,
      createdMs: instantMs(createdAt),
    };
  });
}

/** One team in the teams tab. */
export interface TeamRow {
  id: number;
  name: string;
  /** Picture URL or data URL; null for the default flower (an empty string counts as none). */
  icon: string | null;
  /** As stored ('' when the team wrote none: the row's detail shows a default text). */
  description: string;
  joinCode: string | null;
  participantCount: number;
  /** Rounded whole km (spec §4). */
  distance: number;
  /** ISO instant. */
  createdAt: string;
  createdMs: number | null;
}

/** The teams tab's rows (spec §2 "Teams"). */
export function teamRows(teams: readonly AdminTeam[]): TeamRow[] {
  return teams.map((team) => ({
    id: team.id,
    name: team.team_name,
    icon: team.icon === null || team.icon.trim() === '' ? null : team.icon,
    description: team.description,
    joinCode: team.join_code,
    participantCount: team.participant_count,
    distance: team.distance,
    createdAt: team.created_at,
    createdMs: instantMs(team.created_at),
  }));
}

/** One entry in the entries tab. */
export interface EntryRow {
  id: number;
  /** Null once the person is erased. */
  fullName: string | null;
  /** Null when the team is gone. */
  teamName: string | null;
  /** km, two decimals. */
  distance: number;
  /** A preset key (translated when shown) or free text. */
  entryType: string;
  /** YYYY-MM-DD (Europe/Tallinn). */
  performedAt: string;
  /** ISO instant. */
  createdAt: string;
  createdMs: number | null;
}

/** The entries tab's rows (spec §2 "Entries"). */
export function entryRows(entries: readonly AdminEntry[]): EntryRow[] {
  return entries.map((entry) => ({
    id: entry.id,
    fullName: entry.participant.full_name,
    teamName: entry.team.team_name,
    distance: entry.distance,
    entryType: entry.entry_type,
    performedAt: entry.performed_at,
    createdAt: entry.created_at,
    createdMs: instantMs(entry.created_at),
  }));
}

/** An account the reset-password tab offers: its id and e-mail. */
export interface UserChoice {
  id: string;
  email: string;
}

/**
 * The reset-password tab's list (spec §2 "Reset password": "choose a user by email from an
 * alphabetical list"): accounts with an e-mail (erased ones have none and cannot log in), sorted
 * by e-mail in `locale`'s alphabet, case ignored.
 */
export function userChoices(users: readonly Pick<AdminUser, 'id' | 'email'>[], locale: string): UserChoice[] {
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
  return users
    .filter((user): user is { id: string; email: string } => user.email !== null && user.email.trim() !== '')
    .map(({ id, email }) => ({ id, email }))
    .sort((a, b) => collator.compare(a.email, b.email) || a.id.localeCompare(b.id));
}

/**
 * The choices whose e-mail contains `query` (case and extra spaces ignored, as the tables' search;
 * an empty query keeps all), in their order. The choice `keepId` (the one selected) always stays,
 * so that narrowing the list never changes the selection behind the admin's back.
 */
export function filterChoices(choices: readonly UserChoice[], query: string, locale: string, keepId?: string): UserChoice[] {
  const needle = normalizeSearchText(query, locale);
  return choices.filter((choice) => choice.id === keepId || matchesSearch(choice.email, needle, locale));
}
