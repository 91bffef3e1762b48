/**
 * A synthetic edition for load tests of the bulk import (`npm run import --
 * --synthetic 1000000` imports about a million events in under a minute): teams, participants
 * and April 2025 entries made up in memory, deterministically from a seed, in the shape of the
 * export's rows (import-edition.ts), valid under the deciders' rules:
 *
 * - teams of 6 to 10 participants (8 on average), the first member the captain; names, join codes
 *   and e-mails unique (they carry the ids): `<adjective> <animal> <teamId>`, `SY<teamId base 36>`,
 *   `p<participantId>@synthetic.example`;
 * - participants born 1940–2015, full names of at most 32 characters, 85 % paid, registered in
 *   March 2025 after their team;
 * - entries spread evenly over 1–30 April 2025 (performed_at), created the same day between 04:00
 *   and 20:00 UTC (before the 3 May deadline) in id order, 0.50–25.00 km with two decimals, of the
 *   preset activity types or, one in twenty, the free text `Kepikõnd`.
 *
 * Events: a team 1, a participant 1 (+1 for the account when the import has a directory, +1 when
 * paid), an entry 1; the entry count is what is left of `events` after teams and participants
 * (about 25 entries per participant). Ids start at `firstIds` (default 1) so that a synthetic
 * edition can share a database with the 2025 export.
 */
import { ACTIVITY_TYPES } from '@sinilill/domain';
import type { EditionRows, EntryRow, ParticipantRow, TeamRow } from './import-edition';

export interface SyntheticEditionOptions {
  /** About how many events the import should append (>= 1). */
  events: number;
  /** PRNG seed (default 1): the same seed and size give the same rows. */
  seed?: number;
  /** Whether each participant also gets an account event (the import has a directory; default true). */
  accounts?: boolean;
  /** The first team, participant and entry ids (default 1 each). */
  firstIds?: { team: number; participant: number; entry: number };
}

/** The rows, re-iterable (each iteration of `entries` yields the same rows), and what they add up to. */
export interface SyntheticEdition extends EditionRows {
  /** The events the import appends into an empty database (teams + participants + accounts + paid + entries). */
  expectedEvents: number;
}

const FIRST_NAMES = ['Kaja', 'Anu', 'Mart', 'Jaan', 'Liis', 'Tõnu', 'Mari', 'Peeter', 'Ülle', 'Kristjan', 'Maarja', 'Rein', 'Siiri', 'Andres', 'Helle', 'Priit'];
const LAST_NAMES = ['Kuusk', 'Kõiv', 'Tamm', 'Saar', 'Mägi', 'Sepp', 'Rebane', 'Ilves', 'Pärn', 'Kask', 'Lepik', 'Org', 'Vaher', 'Õun', 'Järv', 'Lill'];
const ADJECTIVES = ['Rahulikud', 'Kiired', 'Sitked', 'Rõõmsad', 'Julged', 'Vaprad', 'Tublid', 'Virged'];
const ANIMALS = ['Ilvesed', 'Karud', 'Hundid', 'Rebased', 'Põdrad', 'Kotkad', 'Jänesed', 'Siilid'];
const GENDERS = ['MALE', 'FEMALE', 'UNDEFINED'] as const;
const PRESETS = ACTIVITY_TYPES.filter((type) => type !== 'OTHER');
/** Average entries per participant, used to size the edition. */
const ENTRIES_PER_PARTICIPANT = 25;
const PAID_SHARE = 0.85;
const DAY_MS = 86_400_000;
const APRIL_1 = Date.UTC(2025, 3, 1);
const MARCH_1 = Date.UTC(2025, 2, 1);

/** mulberry32: a small, fast, seedable PRNG with values in [0, 1) (also the load tests' deterministic source). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [min, max]. */
function between(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/**
 * Makes a synthetic edition of about `options.events` events (see the module's comment).
 * @throws RangeError when `events` is not an integer >= 1.
 */
export function syntheticEdition(options: SyntheticEditionOptions): SyntheticEdition {
  const { events } = options;
  if (!Number.isSafeInteger(events) || events < 1) throw new RangeError(`synthetic edition: events must be an integer >= 1, not ${String(events)}`);
  const seed = options.seed ?? 1;
  const accounts = options.accounts ?? true;
  const first = options.firstIds ?? { team: 1, participant: 1, entry: 1 };
  const random = prng(seed);
  const perParticipant = 1 + (accounts ? 1 : 0) + PAID_SHARE + 1 / 8;
  const participantCount = Math.max(1, Math.round(events / (perParticipant + ENTRIES_PER_PARTICIPANT)));

  const teams: TeamRow[] = [];
  const participants: ParticipantRow[] = [];
  let paid = 0;
  const teamCount = Math.max(1, Math.round(participantCount / 8));
  // Team t is registered on day t·28/T of March; its members within the following hours.
  const teamSpacingMs = (28 * DAY_MS) / teamCount;
  let nextParticipant = 0;
  for (let t = 0; t < teamCount && nextParticipant < participantCount; t++) {
    const teamId = first.team + t;
    const registeredAt = MARCH_1 + Math.floor(t * teamSpacingMs);
    teams.push({
      id: String(teamId),
      team_name: `${ADJECTIVES[between(random, 0, ADJECTIVES.length - 1)]} ${ANIMALS[between(random, 0, ANIMALS.length - 1)]} ${teamId}`,
      description: random() < 0.5 ? '' : 'Every kilometre counts.',
      join_code: `SY${teamId.toString(36).toUpperCase().padStart(6, '0')}`,
      created_at: new Date(registeredAt).toISOString(),
    });
    const last = t === teamCount - 1;
    const size = last ? participantCount - nextParticipant : Math.min(between(random, 6, 10), participantCount - nextParticipant);
    for (let m = 0; m < size; m++, nextParticipant++) {
      const participantId = first.participant + nextParticipant;
      const isPaid = random() < PAID_SHARE;
      if (isPaid) paid++;
      participants.push({
        id: String(participantId),
        full_name: `${FIRST_NAMES[between(random, 0, FIRST_NAMES.length - 1)]} ${LAST_NAMES[between(random, 0, LAST_NAMES.length - 1)]}`,
        email: `p${participantId}@synthetic.example`,
        gender: GENDERS[between(random, 0, GENDERS.length - 1)]!,
        birth_year: String(between(random, 1940, 2015)),
        team_id: String(teamId),
        is_paid: String(isPaid),
        is_captain: String(m === 0),
        created_at: new Date(registeredAt + (m + 1) * 60_000).toISOString(),
      });
    }
  }

  const fixed = teams.length + participants.length * (accounts ? 2 : 1) + paid;
  const entryCount = Math.max(0, events - fixed);
  const participantCountFinal = participants.length;
  const entrySeed = (seed ^ 0x5eed) >>> 0;
  const entries: Iterable<EntryRow> = {
    *[Symbol.iterator]() {
      const draw = prng(entrySeed);
      let id = first.entry;
      for (let day = 0; day < 30; day++) {
        const today = Math.floor((entryCount * (day + 1)) / 30) - Math.floor((entryCount * day) / 30);
        const start = APRIL_1 + day * DAY_MS + 4 * 3_600_000;
        const spacing = (16 * 3_600_000) / Math.max(1, today);
        const performedAt = `2025-04-${String(day + 1).padStart(2, '0')}`;
        for (let i = 0; i < today; i++, id++) {
          const participant = participants[Math.floor(draw() * participantCountFinal)]!;
          const hundredths = between(draw, 50, 2500);
          yield {
            id: String(id),
            team_id: participant.team_id,
            participant_id: participant.id,
            distance: (hundredths / 100).toFixed(2),
            entry_type: draw() < 0.05 ? 'Kepikõnd' : PRESETS[Math.floor(draw() * PRESETS.length)]!,
            performed_at: performedAt,
            created_at: new Date(start + Math.floor(i * spacing)).toISOString(),
          };
        }
      }
    },
  };
  return {
    teams, participants, entries, entryCount,
    maxEntryId: entryCount === 0 ? 0 : first.entry + entryCount - 1,
    expectedEvents: fixed + entryCount,
  };
}
