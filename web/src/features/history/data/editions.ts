/**
 * The past editions' figures exactly as spec §1 gives them; the history page shows them in its
 * figure lists and weaves the same numbers into its text, so a figure lives only here.
 * Spec §1: "2021 had 653 km and about 100 participants; 2022 had 1805 km, 63 teams and 802
 * participants; 2023 had 2880 km, 105 teams, 1044 participants (201881 distance, 1123 flowers in
 * the history page); 2024 had 1030 participants, 111 teams, 194,698 km. The 2024 route had 100
 * units plus one bonus flower, at 2784 km plus 1590 km."
 */

export type HistoryYear = 2021 | 2022 | 2023 | 2024;

/** One line of a year's figure list: a label key of the history namespace and its value. */
export type Figure =
  | { label: 'participants' | 'teams' | 'flowers'; value: { kind: 'count'; count: number } }
  | { label: 'participants'; value: { kind: 'about'; count: number } }
  | { label: 'distance' | 'route' | 'travelled'; value: { kind: 'km'; km: number } }
  | { label: 'routeParts'; value: { kind: 'routeParts'; units: number; bonus: number } }
  | { label: 'routeLength'; value: { kind: 'kmPlusKm'; first: number; second: number } };

/** The numbers a year's text can name. */
export type InTextName = 'participants' | 'teams' | 'route' | 'travelled' | 'flowers' | 'units';

export interface PastEdition {
  year: HistoryYear;
  figures: readonly Figure[];
  /** The numbers the year's text refers to by name ({{participants}}, {{teams}}, …). */
  inText: Readonly<Partial<Record<InTextName, number>>>;
}

export const PAST_EDITIONS: readonly PastEdition[] = [
  {
    year: 2021,
    figures: [
      { label: 'participants', value: { kind: 'about', count: 100 } },
      { label: 'distance', value: { kind: 'km', km: 653 } },
    ],
    inText: {},
  },
  {
    year: 2022,
    figures: [
      { label: 'participants', value: { kind: 'count', count: 802 } },
      { label: 'teams', value: { kind: 'count', count: 63 } },
      { label: 'distance', value: { kind: 'km', km: 1805 } },
    ],
    inText: { participants: 802, teams: 63 },
  },
  {
    year: 2023,
    figures: [
      { label: 'participants', value: { kind: 'count', count: 1044 } },
      { label: 'teams', value: { kind: 'count', count: 105 } },
      { label: 'route', value: { kind: 'km', km: 2880 } },
      { label: 'travelled', value: { kind: 'km', km: 201881 } },
      { label: 'flowers', value: { kind: 'count', count: 1123 } },
    ],
    inText: { participants: 1044, teams: 105, route: 2880, travelled: 201881, flowers: 1123 },
  },
  {
    year: 2024,
    figures: [
      { label: 'participants', value: { kind: 'count', count: 1030 } },
      { label: 'teams', value: { kind: 'count', count: 111 } },
      { label: 'travelled', value: { kind: 'km', km: 194698 } },
      { label: 'routeParts', value: { kind: 'routeParts', units: 100, bonus: 1 } },
      { label: 'routeLength', value: { kind: 'kmPlusKm', first: 2784, second: 1590 } },
    ],
    inText: { participants: 1030, teams: 111, travelled: 194698, units: 100 },
  },
];
