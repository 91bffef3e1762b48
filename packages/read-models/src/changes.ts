/**
 * Change notifications: after a batch of a projection commits in the live schema, listeners (the
 * query API's live streams) learn which teams' read models moved, through PostgreSQL's
 * LISTEN/NOTIFY on channel READ_MODEL_CHANGES_CHANNEL. The runner sends the notification inside
 * the batch's transaction, and PostgreSQL delivers it only on commit: a listener never hears of
 * a change it could not yet read, and a rolled-back batch says nothing.
 *
 * The payload is a hint, not data: a listener refetches with `x-min-position: position`, which
 * waits for every projection (read-your-writes), so a lost notification (a listener's dropped
 * connection) costs only timeliness, and a listener that reconnects treats everything as changed.
 */
import type { RecordedEvent } from '@sinilill/event-store';

/** The NOTIFY channel the runner sends on and the query API listens to. */
export const READ_MODEL_CHANGES_CHANNEL = 'rm_changes';

/**
 * Most teams one notification names; beyond it `teams` is null ("any team"). 200 ids of up to 10
 * digits stay far below PostgreSQL's 8000-byte payload limit.
 */
export const MAX_NOTIFIED_TEAMS = 200;

/** The `projection` of the one notification a rebuild sends after its swap. */
export const EVERY_PROJECTION = '*';

/** One notification's payload (JSON). */
export interface ReadModelChange {
  /** The projection whose batch committed, or EVERY_PROJECTION after a rebuild's swap. */
  projection: string;
  /** Its checkpoint after the batch: the global position the change is visible from. */
  position: number;
  /** Ids of the teams whose rows the batch may have changed, ascending; null: any team. */
  teams: number[] | null;
}

/**
 * The teams a batch of applied events touches: the distinct `data.teamId` values, ascending.
 * Null ("any team") when an event carries no integer teamId (ParticipantPaymentMarked,
 * SettingsChanged) or when there are more than MAX_NOTIFIED_TEAMS of them (a replay-sized batch).
 */
export function changedTeams(events: readonly Pick<RecordedEvent, 'data'>[]): number[] | null {
  const teams = new Set<number>();
  for (const event of events) {
    const teamId = (event.data as { teamId?: unknown } | null)?.teamId;
    if (typeof teamId !== 'number' || !Number.isSafeInteger(teamId)) return null;
    teams.add(teamId);
    if (teams.size > MAX_NOTIFIED_TEAMS) return null;
  }
  return [...teams].sort((a, b) => a - b);
}

/**
 * Reads a notification's payload; null when it is not a ReadModelChange (another writer on the
 * channel, a payload from a newer version): a listener ignores it rather than fail.
 */
export function parseReadModelChange(payload: string | undefined): ReadModelChange | null {
  if (payload === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { projection, position, teams } = value as Record<string, unknown>;
  if (typeof projection !== 'string' || !Number.isSafeInteger(position) || (position as number) < 0) return null;
  if (teams !== null && !(Array.isArray(teams) && teams.every((t) => Number.isSafeInteger(t)))) return null;
  return { projection, position: position as number, teams: teams as number[] | null };
}
