/**
 * The participation fee by birth year and the smallest amounts an order may carry (spec §9: 15 EUR
 * for people born in 2010 or earlier, 5 EUR for 2011 or later; company team 15 EUR per person;
 * donation at least 1 EUR, default 5). The figures are the edition's data (edition-YYYY.json
 * `fees`, docs/decisions/0009); money is EUR cents.
 */
import type { Edition } from '../edition/types';
import type { PaymentKind } from '../events';

/**
 * True when the child fee applies: born in `fees.childFromBirthYear` (2011 in 2025) or later.
 * An unknown birth year (null: erased personal data) is not a child's.
 */
export function isChild(birthYear: number | null, edition: Edition): boolean {
  return birthYear !== null && birthYear >= edition.fees.childFromBirthYear;
}

/**
 * The participation fee in EUR cents for a person born in `birthYear`: `fees.childCents` (500)
 * for a child (see isChild), else `fees.adultCents` (1500). An unknown birth year pays the adult
 * fee.
 */
export function feeFor(birthYear: number | null, edition: Edition): number {
  return isChild(birthYear, edition) ? edition.fees.childCents : edition.fees.adultCents;
}

/**
 * The participation fee in EUR cents of a participant (spec §9): in a company team
 * `fees.companyPerPersonCents` (1500 in 2025) whatever the birth year, else feeFor(birthYear)
 * (1500 or 500).
 */
export function participantFee(birthYear: number | null, company: boolean, edition: Edition): number {
  return company ? edition.fees.companyPerPersonCents : feeFor(birthYear, edition);
}

/**
 * What a company team's captain owes for `unpaidMembers` members at once (spec §9 "company team 15
 * EUR per person"), EUR cents: unpaidMembers × fees.companyPerPersonCents.
 */
export function teamFeeCents(unpaidMembers: number, edition: Edition): number {
  return unpaidMembers * edition.fees.companyPerPersonCents;
}

/**
 * The smallest amount, EUR cents, an order of `kind` may carry: the fee itself for a fee order (a
 * custom amount may only add to it, spec §2), `fees.donationMinCents` (100) for a donation.
 */
export function minimumAmountCents(kind: PaymentKind, feeCents: number, edition: Edition): number {
  return kind === 'fee' ? feeCents : edition.fees.donationMinCents;
}
