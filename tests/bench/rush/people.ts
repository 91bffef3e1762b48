/**
 * The people of the rush: `teams` teams of the 2025 edition and `participants` participants
 * spread over them as evenly as the counts allow (1 000 over 150: 100 teams of 7, 50 of 6), in
 * the shape of the old system's export (import-edition.ts rows), so that `importRows` brings them
 * in as `npm run import` brings an export in: teams, participants with their accounts (approved,
 * no password yet), paid marks, and the entries they logged earlier in April.
 *
 * - Team `t` (1-based): `<adjective> <animal> <t>`, join code `RU<t base 36>`, registered in March
 *   2025. Its first member is the captain. Ids start at 1 in a database of the rush's own.
 * - Participant `p`: an Estonian name, `rush<p>@sinilill.test`, born 1950–2009, 85 % paid.
 * - `earlierEntries` entries per participant (default 13: the 2025 export has 13 600 entries of
 *   1 005 participants), 0.50–15.00 km, one of the preset activity types, performed 1–29 April
 *   2025 and logged the same evening (18:00 UTC), so that a team page shows about a hundred.
 * - The first `readersPerTeam` members of each team (default 2: 300 of 1 000) keep the team page
 *   open during the rush; every participant writes.
 *
 * Deterministic from `seed` (mulberry32, @sinilill/cli prng). Passwords are not here: the rush
 * gives each account one through the API (rush.ts).
 */
import { prng, type EditionRows, type EntryRow, type ParticipantRow, type TeamRow } from '@sinilill/cli';
import { ACTIVITY_TYPES } from '@sinilill/domain';

const FIRST_NAMES = ['Kaja', 'Anu', 'Mart', 'Jaan', 'Liis', 'Tõnu', 'Mari', 'Peeter', 'Ülle', 'Kristjan', 'Maarja', 'Rein', 'Siiri', 'Andres', 'Helle', 'Priit'];
const LAST_NAMES = ['Kuusk', 'Kõiv', 'Tamm', 'Saar', 'Mägi', 'Sepp', 'Rebane', 'Ilves', 'Pärn', 'Kask', 'Lepik', 'Org', 'Vaher', 'Õun', 'Järv', 'Lill'];
const ADJECTIVES = ['Rahulikud', 'Kiired', 'Sitked', 'Rõõmsad', 'Julged', 'Vaprad', 'Tublid', 'Virged'];
const ANIMALS = ['Ilvesed', 'Karud', 'Hundid', 'Rebased', 'Põdrad', 'Kotkad', 'Jänesed', 'Siilid'];
const GENDERS = ['MALE', 'FEMALE', 'UNDEFINED'] as const;
/** The preset activity types (OTHER takes a free text: the rush logs presets only). */
export const PRESET_TYPES = ACTIVITY_TYPES.filter((type) => type !== 'OTHER');

/** One participant as the rush's clients know them. */
export interface RushPerson {
  participantId: number;
  teamId: number;
  email: string;
  /** Whether this person keeps the team page open (a reader) besides writing. */
  reader: boolean;
}

export interface RushPeople {
  rows: EditionRows;
  people: RushPerson[];
}

/** A distance in km with two decimals, from `min` to `max`. */
export function distanceKm(random: () => number, min: number, max: number): number {
  return Math.round((min + random() * (max - min)) * 100) / 100;
}

/**
 * The rows and the people (see the module comment).
 * @throws RangeError when there are fewer participants than teams × readersPerTeam, or no team.
 */
export function rushPeople(options: { teams: number; participants: number; readersPerTeam?: number; earlierEntries?: number; seed?: number }): RushPeople {
  const { teams, participants } = options;
  const readersPerTeam = options.readersPerTeam ?? 2;
  const earlierEntries = options.earlierEntries ?? 13;
  if (teams < 1 || participants < teams * readersPerTeam) {
    throw new RangeError(`rush people: ${participants} participants cannot fill ${teams} teams with ${readersPerTeam} readers each`);
  }
  const random = prng(options.seed ?? 30);
  const teamRows: TeamRow[] = [];
  for (let t = 1; t <= teams; t++) {
    teamRows.push({
      id: String(t),
      team_name: `${ADJECTIVES[t % ADJECTIVES.length]} ${ANIMALS[Math.floor(t / ADJECTIVES.length) % ANIMALS.length]} ${t}`,
      description: '',
      join_code: `RU${t.toString(36).toUpperCase()}`,
      created_at: new Date(Date.UTC(2025, 2, 1 + (t % 20), 9)).toISOString(),
    });
  }
  const participantRows: ParticipantRow[] = [];
  const people: RushPerson[] = [];
  // Member m of team t: participants are dealt round the teams, so team sizes differ by one at most.
  const memberIndex = new Map<number, number>();
  for (let p = 1; p <= participants; p++) {
    const teamId = ((p - 1) % teams) + 1;
    const index = memberIndex.get(teamId) ?? 0;
    memberIndex.set(teamId, index + 1);
    const email = `rush${p}@sinilill.test`;
    participantRows.push({
      id: String(p),
      full_name: `${FIRST_NAMES[Math.floor(random() * FIRST_NAMES.length)]} ${LAST_NAMES[Math.floor(random() * LAST_NAMES.length)]}`,
      email,
      gender: GENDERS[Math.floor(random() * GENDERS.length)]!,
      birth_year: String(1950 + Math.floor(random() * 60)),
      team_id: String(teamId),
      is_paid: random() < 0.85 ? 'true' : 'false',
      is_captain: index === 0 ? 'true' : 'false',
      created_at: new Date(Date.UTC(2025, 2, 21, 10) + p * 60_000).toISOString(),
    });
    people.push({ participantId: p, teamId, email, reader: index < readersPerTeam });
  }
  const entries: EntryRow[] = [];
  for (const person of people) {
    for (let i = 0; i < earlierEntries; i++) {
      const day = 1 + Math.floor(random() * 29);
      entries.push({
        id: String(entries.length + 1),
        team_id: String(person.teamId),
        participant_id: String(person.participantId),
        distance: distanceKm(random, 0.5, 15).toFixed(2),
        entry_type: PRESET_TYPES[Math.floor(random() * PRESET_TYPES.length)]!,
        performed_at: `2025-04-${String(day).padStart(2, '0')}`,
        created_at: new Date(Date.UTC(2025, 3, day, 18)).toISOString(),
      });
    }
  }
  // The importer appends in row order; entries in the order they were logged.
  entries.sort((a, b) => a.created_at.localeCompare(b.created_at) || Number(a.id) - Number(b.id));
  entries.forEach((entry, index) => { entry.id = String(index + 1); });
  return {
    rows: { teams: teamRows, participants: participantRows, entries, entryCount: entries.length, maxEntryId: entries.length },
    people,
  };
}
