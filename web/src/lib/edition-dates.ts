/**
 * An edition's days as the home page's sentences name them, in the page's language, for any
 * month (spec §2 "Home", §4 dates; the edition's data, not a built-in April): Estonian inflects the
 * month by the sentence ("algab 1. aprillil", "30. aprillini", "kuni 3. mai keskööni", "5. mail"),
 * English does not. Day numbers and month names only; the year is the sentences' own.
 */
import type { Language } from '@sinilill/contracts';
import type { Edition } from '@sinilill/domain';

/** Estonian month names by grammatical case, January first. */
const ET_MONTHS = {
  nominative: ['jaanuar', 'veebruar', 'märts', 'aprill', 'mai', 'juuni', 'juuli', 'august', 'september', 'oktoober', 'november', 'detsember'],
  genitive: ['jaanuari', 'veebruari', 'märtsi', 'aprilli', 'mai', 'juuni', 'juuli', 'augusti', 'septembri', 'oktoobri', 'novembri', 'detsembri'],
  adessive: ['jaanuaril', 'veebruaril', 'märtsil', 'aprillil', 'mail', 'juunil', 'juulil', 'augustil', 'septembril', 'oktoobril', 'novembril', 'detsembril'],
  elative: ['jaanuarist', 'veebruarist', 'märtsist', 'aprillist', 'maist', 'juunist', 'juulist', 'augustist', 'septembrist', 'oktoobrist', 'novembrist', 'detsembrist'],
  terminative: ['jaanuarini', 'veebruarini', 'märtsini', 'aprillini', 'maini', 'juunini', 'juulini', 'augustini', 'septembrini', 'oktoobrini', 'novembrini', 'detsembrini'],
} as const;

type EtCase = keyof typeof ET_MONTHS;

const EN_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;

const NBSP = '\u00a0';

interface Day {
  day: number;
  /** 1–12. */
  month: number;
}

function dayOf(iso: string): Day {
  return { day: Number(iso.slice(8, 10)), month: Number(iso.slice(5, 7)) };
}

function monthName(month: number, lang: Language, grammaticalCase: EtCase): string {
  return (lang === 'et' ? ET_MONTHS[grammaticalCase][month - 1] : EN_MONTHS[month - 1]) ?? '';
}

/** "1. aprillil" / "1 April": a day with its month in the case the sentence wants (English has none). */
function dayText({ day, month }: Day, lang: Language, grammaticalCase: EtCase): string {
  return lang === 'et' ? `${day}.${NBSP}${monthName(month, lang, grammaticalCase)}` : `${day}${NBSP}${monthName(month, lang, grammaticalCase)}`;
}

/** The words of an edition's days, for the home page's texts. */
export interface EditionDayTexts {
  /** The event's days as a heading: "1.–30. aprill" / "1–30 April" ("1. märts – 30. aprill" across months). */
  range: string;
  /** The first day, "on" it: "1. aprillil" / "1 April". */
  startOn: string;
  /** From the first day to the last: "1.–30. aprillini" / "1 to 30 April". */
  span: string;
  /** Until the last day: "30. aprillini" / "30 April". */
  until: string;
  /** The late-entry day, whose midnight ends entries: "3. mai" (genitive) / "3 May". */
  lateDay: string;
  /** The draw's day, "on" it: "5. mail" / "5 May". */
  drawOn: string;
  /** The draw's time as the language writes it: "17.00" / "17:00". */
  drawTime: string;
}

/** The words of `edition`'s days in `lang` (see EditionDayTexts). */
export function editionDayTexts(edition: Pick<Edition, 'startDate' | 'endDate' | 'lateEntriesUntil' | 'prizeDraw'>, lang: Language): EditionDayTexts {
  const start = dayOf(edition.startDate);
  const end = dayOf(edition.endDate);
  const sameMonth = start.month === end.month;
  const time = edition.prizeDraw.slice(11, 16);
  let range: string;
  let span: string;
  if (lang === 'et') {
    range = sameMonth ? `${start.day}.–${dayText(end, lang, 'nominative')}` : `${dayText(start, lang, 'nominative')} – ${dayText(end, lang, 'nominative')}`;
    span = sameMonth ? `${start.day}.–${dayText(end, lang, 'terminative')}` : `${dayText(start, lang, 'elative')} ${dayText(end, lang, 'terminative')}`;
  } else {
    range = sameMonth ? `${start.day}–${dayText(end, lang, 'nominative')}` : `${dayText(start, lang, 'nominative')} – ${dayText(end, lang, 'nominative')}`;
    span = sameMonth ? `${start.day} to ${dayText(end, lang, 'nominative')}` : `${dayText(start, lang, 'nominative')} to ${dayText(end, lang, 'nominative')}`;
  }
  return {
    range,
    startOn: dayText(start, lang, 'adessive'),
    span,
    until: dayText(end, lang, 'terminative'),
    lateDay: dayText(dayOf(edition.lateEntriesUntil), lang, 'genitive'),
    drawOn: dayText(dayOf(edition.prizeDraw), lang, 'adessive'),
    // Estonian writes the time of day with a full stop (kell 17.00).
    drawTime: lang === 'et' ? time.replace(':', '.') : time,
  };
}
