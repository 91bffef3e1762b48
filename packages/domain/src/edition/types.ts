/**
 * An edition of the event as data (spec §1, §4, §5, §9): dates, time zone, route, fees, limits.
 * An edition is data written as events (EditionPlanned, EditionChanged in stream `edition-{year}`,
 * planned in the admin console); ./seed holds the 2025 edition as it was imported and the demo's
 * 2026 edition, as JSON.
 */

/** A text in both languages of the site (Estonian first). */
export interface BilingualText {
  et: string;
  en: string;
}

/** One mission region of the route (spec §3 "Mission"): cumulative km from the lap's start. */
export interface Mission {
  id: number;
  /** Flowers for completing the mission (1 each in 2025). */
  blueFlowerAmount: number;
  /** Cumulative km where the mission starts (the previous mission's end; 0 for the first). */
  start: number;
  /** Cumulative km where the mission ends; its flower is collected at in-lap distance >= end. */
  end: number;
  /** Mission length in km (= the operation's length in months). */
  distance: number;
  name: BilingualText;
  description: BilingualText;
  /**
   * Where the mission's marker sits on the route map, [longitude, latitude] in degrees (WGS 84).
   * Absent: the map places it by its English name (the atlas's regions).
   */
  position?: [number, number];
}

export interface Route {
  /** Length of one lap in km (1893 in 2025) = the last mission's end. */
  lapLength: number;
  missions: Mission[];
}

export interface Edition {
  /** The edition's year; its stream is `edition-{year}` and its event days lie in it. */
  year: number;
  /** "Sinilill 2026" in both languages. */
  name: BilingualText;
  /** First local day (YYYY-MM-DD) on which teams and participants may register. */
  registrationOpens: string;
  /** IANA zone in which dates are judged and shown: Europe/Tallinn. */
  timeZone: string;
  /** First and last day of the event, YYYY-MM-DD (local). Entries must be performed within. */
  startDate: string;
  endDate: string;
  /** Last local day (inclusive, until midnight) on which entries may still be added (spec §4). */
  lateEntriesUntil: string;
  /** Local date-time of the prize draw, YYYY-MM-DDTHH:mm. */
  prizeDraw: string;
  /** The prize draw's rules as shown to participants; absent: the guide's general text. */
  drawRules?: BilingualText;
  /** Money in EUR cents (spec §9). Child = born in childFromBirthYear or later. */
  fees: {
    adultCents: number;
    childCents: number;
    childFromBirthYear: number;
    companyPerPersonCents: number;
    donationDefaultCents: number;
    donationMinCents: number;
  };
  /** Lengths in characters, sizes in bytes (spec §5, §9). */
  limits: {
    emailMax: number;
    fullNameMax: number;
    joinCodeMax: number;
    teamNameMax: number;
    descriptionMax: number;
    passwordMin: number;
    imageMaxBytes: number;
    birthYearMin: number;
    birthYearMax: number;
  };
  /** Blue-flower rule parameters (spec §4). */
  flowers: {
    base: number;
    perPrestige: number;
    fullLapBonus: number;
    maxPerLapBase: number;
    nextFlowerFallbackKm: number;
  };
  /** Home progress bar: vertical offset of a team's dot (spec §9). */
  teamDots: { percentPerParticipant: number; maxParticipants: number };
  /** Moderation rules of entries (entry/moderation.ts). */
  moderation: ModerationRules;
  route: Route;
}

/** Plausibility limits of one entry type, km. Exactly at a limit passes. */
export interface EntryTypeLimits {
  /** Largest distance of one entry, km. */
  maxKmPerEntry: number;
  /** Largest sum of one participant's live entries of this type on one local date, km. */
  maxKmPerDay: number;
}

/**
 * The edition's moderation rules as data: limits per preset entry type
 * (ActivityType key), `default` for the others (free text under Other), and whether the same
 * participant, date, type and distance twice is flagged.
 */
export interface ModerationRules {
  default: EntryTypeLimits;
  byType: Record<string, EntryTypeLimits>;
  duplicates: boolean;
  /**
   * A team's km on a day per member far above the other teams' (TEAM_DAY_OUTLIER): flagged when
   * above `factor` × the `percentile` (0–1, nearest rank) of the other teams' km per member that
   * day, once at least `minTeams` other teams have km that day. Absent: the rule is off.
   */
  teamDayOutlier?: { factor: number; percentile: number; minTeams: number };
}
