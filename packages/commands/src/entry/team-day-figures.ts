/**
 * The team-day figures of TEAM_DAY_OUTLIER held warm in memory per process, so that adding an
 * entry reads none of them on its way (docs/decisions/0100). Per day (YYYY-MM-DD), every team's
 * km that day (hundredths; rejected entries left out) and members, as the read models had them
 * (`load`: rm.team_daily_distance and rm.team_stats in the command API), plus the entries this
 * process has added since that load began (`added`, after their commit).
 *
 * - A day's figures are loaded on its first use (the one read on that request), then served from
 *   memory; once older than `refreshMs` (default 1 s) they are loaded again in the background and
 *   the held ones served meanwhile. Figures older than `maxAgeMs` (default 60 s: loads keep failing)
 *   are not served: the rule is then not applied, as without a look-up.
 * - The rule is a heuristic and was always as current as the read models (spec of the rule in
 *   @sinilill/domain moderation.ts); held figures are that plus at most `refreshMs`, and this
 *   process's own entries count at once.
 * - A failed load never stops an entry: the day is then not judged by the rule.
 * - At most `maxDays` (default 62) days are held; past it the oldest used goes.
 */
import type { TeamDay } from '@sinilill/domain';

/** A team's figures of one day. */
export interface TeamFigures {
  /** The team's km that day, hundredths, rejected entries left out. */
  hundredths: number;
  /** The team's members. */
  members: number;
}

/** Loads every team's figures of `day` (YYYY-MM-DD): team id → figures. */
export type TeamDayLoader = (day: string) => Promise<ReadonlyMap<number, TeamFigures>>;

/** Options of TeamDayFigures. */
export interface TeamDayFiguresOptions {
  /** Age after which a day is loaded again in the background, ms (default 1 000). */
  refreshMs?: number;
  /** Age after which a day's figures are not served any more, ms (default 60 000). */
  maxAgeMs?: number;
  /** Most days held (default 62). */
  maxDays?: number;
  /** Epoch ms (default Date.now). */
  now?: () => number;
}

interface HeldDay {
  teams: ReadonlyMap<number, TeamFigures>;
  /** When the held load began, epoch ms. */
  loadedAt: number;
  /** Entries added by this process since the held load began: team id → hundredths. */
  since: Map<number, number>;
  /** Entries added during the load in flight (they become `since` of the next figures). */
  during: Map<number, number> | null;
  /** The load in flight, if any. */
  loading: Promise<void> | null;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Team-day figures kept warm (see the module's comment). */
export class TeamDayFigures {
  private readonly days = new Map<string, HeldDay>();
  private readonly refreshMs: number;
  private readonly maxAgeMs: number;
  private readonly maxDays: number;
  private readonly now: () => number;

  constructor(private readonly load: TeamDayLoader, options: TeamDayFiguresOptions = {}) {
    this.refreshMs = options.refreshMs ?? 1_000;
    this.maxAgeMs = options.maxAgeMs ?? 60_000;
    this.maxDays = options.maxDays ?? 62;
    this.now = options.now ?? Date.now;
  }

  /**
   * Makes `day`'s figures ready for teamDay: at once when held (a stale day starts its background
   * load), after one load when not. Never throws. A value that is not a YYYY-MM-DD is ignored.
   */
  async warm(day: unknown): Promise<void> {
    if (typeof day !== 'string' || !DAY.test(day)) return;
    const held = this.days.get(day);
    if (held) {
      // Most recently used last, so the oldest used goes first.
      this.days.delete(day);
      this.days.set(day, held);
      if (this.now() - held.loadedAt >= this.refreshMs && !held.loading) void this.reload(day, held);
      if (this.now() - held.loadedAt < this.maxAgeMs) return;
      await (held.loading ?? this.reload(day, held));
      return;
    }
    const fresh: HeldDay = { teams: new Map(), loadedAt: -Infinity, since: new Map(), during: null, loading: null };
    if (this.days.size >= this.maxDays) this.days.delete(this.days.keys().next().value!);
    this.days.set(day, fresh);
    await this.reload(day, fresh);
  }

  /**
   * The team's day for TEAM_DAY_OUTLIER from the held figures (call warm first): its km that day
   * (its `otherHundredths`: a new entry is not in them yet), members (at least 1), and every other
   * team's km per member that day. Null when the day is not held, too old, or the team unknown to it.
   */
  teamDay(teamId: number, day: string): TeamDay | null {
    const held = this.days.get(day);
    if (!held || this.now() - held.loadedAt >= this.maxAgeMs) return null;
    const own = held.teams.get(teamId);
    if (!own) return null;
    const plus = (id: number) => (held.since.get(id) ?? 0) + (held.during?.get(id) ?? 0);
    const othersPerMember: number[] = [];
    for (const [id, figures] of held.teams) {
      const hundredths = figures.hundredths + plus(id);
      if (id !== teamId && figures.members > 0 && hundredths > 0) othersPerMember.push(hundredths / 100 / figures.members);
    }
    return { otherHundredths: own.hundredths + plus(teamId), members: Math.max(1, own.members), othersPerMember };
  }

  /** An entry this process has appended (after its commit): `hundredths` km on the team's `day`. */
  added(teamId: number, day: string, hundredths: number): void {
    const held = this.days.get(day);
    if (!held) return;
    const bump = (map: Map<number, number>) => map.set(teamId, (map.get(teamId) ?? 0) + hundredths);
    bump(held.since);
    // A load in flight may or may not see it; counted again on top of it, never lost.
    if (held.during) bump(held.during);
  }

  private reload(day: string, held: HeldDay): Promise<void> {
    const startedAt = this.now();
    held.during = new Map();
    held.loading = this.load(day).then((teams) => {
      held.teams = teams;
      held.loadedAt = startedAt;
      held.since = held.during ?? new Map();
    }, () => undefined).finally(() => {
      held.during = null;
      held.loading = null;
    });
    return held.loading;
  }
}
