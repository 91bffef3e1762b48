import type { PaymentMethod, PaymentMethodsAnswer } from '@sinilill/contracts';
import type { Language } from '@sinilill/contracts';

/** The country selected first (spec §9: "Default country EE"). */
export const DEFAULT_COUNTRY = 'EE';

/** One country of the provider's setup, as the fee form lists it. */
export interface PaymentCountry {
  /** ISO 3166-1 alpha-2 code, e.g. "EE". */
  country: string;
  /** Its banks in the provider's order (uiPosition ascending). */
  methods: PaymentMethod[];
}

/**
 * The countries of GET /api/payment/methods as the fee form lists them (spec §2: "countries from
 * the provider's setup, listed in reverse order"), each with its banks sorted by uiPosition.
 * Countries without banks are left out. Does not change `answer`.
 */
export function listedCountries(answer: PaymentMethodsAnswer): PaymentCountry[] {
  return answer.countries
    .filter((entry) => entry.methods.length > 0)
    .map((entry) => ({ country: entry.country, methods: [...entry.methods].sort((a, b) => a.uiPosition - b.uiPosition) }))
    .reverse();
}

/**
 * The country to select: `remembered` (the payer's earlier choice) when it is listed, else EE
 * (spec §9), else the first listed; null when none is listed.
 */
export function initialCountry(countries: readonly PaymentCountry[], remembered: string | null): string | null {
  const listed = (code: string | null) => code !== null && countries.some((entry) => entry.country === code);
  if (listed(remembered)) return remembered;
  if (listed(DEFAULT_COUNTRY)) return DEFAULT_COUNTRY;
  return countries[0]?.country ?? null;
}

/** The banks of `country` (empty when it is not listed). */
export function methodsOf(countries: readonly PaymentCountry[], country: string | null): PaymentMethod[] {
  return countries.find((entry) => entry.country === country)?.methods ?? [];
}

/** `code` when it is one of `methods`' codes, else null (a bank of another country is no choice). */
export function chosenMethod(methods: readonly PaymentMethod[], code: string | null): string | null {
  return methods.some((method) => method.code === code) ? code : null;
}

/** A country's name in the page's language ("Eesti", "Estonia"); the code where it has none. */
export function countryName(code: string, lang: Language): string {
  try {
    return new Intl.DisplayNames([lang], { type: 'region', fallback: 'code' }).of(code) ?? code;
  } catch {
    return code;
  }
}
