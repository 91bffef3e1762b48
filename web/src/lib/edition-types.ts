/**
 * The shapes of the editions' public answers (the helpers' API contract): GET /api/editions and
 * GET /api/history/editions/:year. Types only, shared by ./edition.ts and ./site-edition.ts.
 */
import type { Edition, EditionLifePhase, Route } from '@sinilill/domain';

/** One edition as GET /api/editions answers it. */
export interface EditionView {
  year: number;
  status: 'planned' | 'opened' | 'closed';
  /** Where it stands on its own calendar at the answer's `now` (EditionCatalog's lifePhase). */
  phase: EditionLifePhase;
  /** True while teams and participants may register for it. */
  registrationOpen: boolean;
  /** The local day (YYYY-MM-DD) in the edition's time zone at the answer's `now`. */
  today: string;
  edition: Edition;
}

/** GET /api/editions. */
export interface EditionsAnswer {
  /** The app clock's instant (ISO-8601) the answer was made at. */
  now: string;
  current: EditionView | null;
  next: EditionView | null;
  /** Closed editions, newest first. */
  archive: EditionView[];
}

/** One team of a closed edition as it ended (GET /api/history/editions/:year). */
export interface ArchivedTeam {
  teamId: number;
  teamName: string;
  /** Km with at most two decimals. */
  km: number;
  flowers: number;
  prestige: number;
  /** The mission the team was on at the end. */
  missionId: number;
  /**
   * How far into its lap the team was: a fraction in [0, 1) (the domain's lapPercentage, in-lap km
   * / lap length), not a percentage.
   */
  lapPercentage: number;
}

/** GET /api/history/editions/:year: a closed edition's final figures, teams (most km first), route and draw. */
export interface ArchivedEditionAnswer {
  year: number;
  name: { et: string; en: string };
  figures: { participants: number; teams: number; km: number; flowers: number; raisedCents: number };
  teams: ArchivedTeam[];
  route: Route;
  draw: { winners: { teamName: string; participantName: string | null }[] } | null;
}
