/**
 * The printed and served texts of the certificates and the team-progress page, in Estonian (first)
 * and English, and the number and date formats of each language (km with two decimals; a space
 * between thousands, a decimal comma in Estonian and a point in English, as on the site).
 */
import type { Language } from '@sinilill/domain';

const MONTHS: Record<Language, readonly string[]> = {
  et: ['jaanuar', 'veebruar', 'märts', 'aprill', 'mai', 'juuni', 'juuli', 'august', 'september', 'oktoober', 'november', 'detsember'],
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
};

/**
 * `value` with `decimals` digits, a plain space between thousands in both languages (spec §2
 * "numbers use a space as thousands separator", as the site's formatNumber) and a decimal comma in
 * Estonian, a point in English: 12345.5 → "12 345,50" (et), "12 345.50" (en).
 */
function formatNumber(value: number, decimals: number, lang: Language): string {
  const [whole = '0', fraction] = Math.abs(value).toFixed(decimals).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return (value < 0 ? '-' : '') + grouped + (fraction === undefined ? '' : (lang === 'et' ? ',' : '.') + fraction);
}

/** km with two decimals in `lang` (et: "1 234,50"; en: "1 234.50"). */
export function formatKm(km: number, lang: Language): string {
  return formatNumber(km, 2, lang);
}

/** A whole number (et and en: "2 491"). */
export function formatCount(value: number, lang: Language): string {
  return formatNumber(value, 0, lang);
}

/**
 * An edition's dates as words: "1.–30. aprill 2025" (et), "1–30 April 2025" (en); `start` and
 * `end` YYYY-MM-DD in one month and year (the edition's first and last day), else both in full.
 */
export function formatDates(start: string, end: string, lang: Language): string {
  const [sy, sm, sd] = start.split('-').map(Number) as [number, number, number];
  const [ey, em, ed] = end.split('-').map(Number) as [number, number, number];
  const month = (m: number) => MONTHS[lang][m - 1] ?? '';
  if (sy === ey && sm === em) return lang === 'et' ? `${sd}.–${ed}. ${month(em)} ${ey}` : `${sd}–${ed} ${month(em)} ${ey}`;
  return lang === 'et' ? `${sd}. ${month(sm)} ${sy} – ${ed}. ${month(em)} ${ey}` : `${sd} ${month(sm)} ${sy} – ${ed} ${month(em)} ${ey}`;
}

/** The texts of one language. */
export interface Texts {
  certificate: string;
  participantLead: string;
  teamLead: string;
  team: string;
  distance: string;
  teamDistance: string;
  flowers: string;
  missions: string;
  dates: string;
  cause: string;
  verify: string;
  code: string;
  /** The progress page. */
  progressTitle: (team: string) => string;
  /** `missions` of `total` are the missions passed on the team's current lap, `lap` (1 for the first). */
  progressDescription: (km: string, flowers: string, missions: string, total: number, lap: number) => string;
  imageAlt: (team: string, km: string, flowers: string, missions: string, total: number, lap: number) => string;
  home: string;
  otherLanguage: string;
  flowersShort: string;
  kmShort: string;
  lap: (n: number) => string;
  /** The missions stat's label under "4/24": the lap they belong to. */
  missionsShort: (lap: number) => string;
}

export const TEXTS: Record<Language, Texts> = {
  et: {
    certificate: 'Tunnistus',
    participantLead: 'Sinilille liikumisüritusel osales',
    teamLead: 'Sinilille liikumisüritusel osales tiim',
    team: 'Tiim',
    distance: 'Läbitud vahemaa',
    teamDistance: 'Tiimi läbitud vahemaa',
    flowers: 'Tiimi sinililled',
    missions: 'Tiimi läbitud missioonid',
    dates: 'Toimumisaeg',
    cause: 'Üritusega toetasime veterane, nende perekondi, taastusravi ja sporti. Aitäh!',
    verify: 'Tunnistuse ehtsust saab kontrollida aadressil',
    code: 'Kood',
    progressTitle: (team) => `${team} – Sinilill`,
    progressDescription: (km, flowers, missions, total, lap) =>
      `Tiim on läbinud ${km} km ja kogunud ${flowers} sinililleõit. Teekonna ${lap}. ringil on läbitud ${missions} missiooni ${total}-st. Liigu kaasa, toetame veterane!`,
    imageAlt: (team, km, flowers, missions, total, lap) => `${team}: ${km} km, ${flowers} sinililleõit, ${lap}. ringil ${missions}/${total} missiooni`,
    home: 'Sinilille avalehele',
    otherLanguage: 'In English',
    flowersShort: 'sinililleõit',
    kmShort: 'km',
    lap: (n) => `Teekonna ${n}. ring`,
    missionsShort: (lap) => `missiooni, ${lap}. ring`,
  },
  en: {
    certificate: 'Certificate',
    participantLead: 'of participation in the Sinilill movement event, awarded to',
    teamLead: 'of participation in the Sinilill movement event, awarded to the team',
    team: 'Team',
    distance: 'Distance covered',
    teamDistance: 'Distance covered by the team',
    flowers: 'Blue flowers of the team',
    missions: 'Missions completed by the team',
    dates: 'Dates',
    cause: 'Together we supported veterans, their families, rehabilitation and sport. Thank you!',
    verify: 'Check that this certificate is genuine at',
    code: 'Code',
    progressTitle: (team) => `${team} – Sinilill`,
    progressDescription: (km, flowers, missions, total, lap) =>
      `The team has covered ${km} km and collected ${flowers} blue flowers. On lap ${lap} of the route it has completed ${missions} of ${total} missions. Move with us in support of veterans!`,
    imageAlt: (team, km, flowers, missions, total, lap) => `${team}: ${km} km, ${flowers} blue flowers, lap ${lap}: ${missions}/${total} missions`,
    home: 'To the Sinilill home page',
    otherLanguage: 'Eesti keeles',
    flowersShort: 'blue flowers',
    kmShort: 'km',
    lap: (n) => `Lap ${n} of the route`,
    missionsShort: (lap) => `missions, lap ${lap}`,
  },
};
