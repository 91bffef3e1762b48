/**
 * Certificates and share images.
 *
 * - GET /api/participant/{id}/certificate.pdf (the participant, their team's members, admins) and
 *   GET /api/team/{id}/certificate.pdf (the team's members, admins): an A4 landscape PDF, once the
 *   edition's late-entry deadline has passed (Europe/Tallinn; before it CERTIFICATE_NOT_AVAILABLE_YET,
 *   409). 401 UNAUTHORIZED, 403 FORBIDDEN, 404 NOT_FOUND (an admin asking for an unknown one).
 * - GET /api/certificates/{code}, public: the figures of a certificate recomputed now from the
 *   read models; a forged, mistyped or erased person's code answers CERTIFICATE_NOT_VALID (404)
 *   and no name.
 * - GET /api/team/{id}/share.png, public: a 1200×630 PNG of the team's public figures;
 *   GET /api/share/team/{id}?lang=et|en, public: the team's progress page, an HTML page with its
 *   Open Graph tags (what a link shared on social media shows).
 *
 * Distances in km with two decimals; dates YYYY-MM-DD (Europe/Tallinn).
 */
import Type from 'typebox';

/** Whose certificate: one participant's, or a whole team's. */
export const CERTIFICATE_KINDS = ['participant', 'team'] as const;
export type CertificateKind = (typeof CERTIFICATE_KINDS)[number];

/**
 * A certificate's code as printed and typed: 16 Crockford base32 characters in four groups of
 * four (`7K2M-9QXA-…`); lower case, spaces and the look-alikes O, I and L are accepted when typed.
 */
export const CertificateCodeParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) });
export type CertificateCodeParams = Type.Static<typeof CertificateCodeParams>;

/** The edition a certificate belongs to: its year and its first and last day (YYYY-MM-DD). */
export const CertificateEdition = Type.Object({
  year: Type.Integer(),
  startDate: Type.String(),
  endDate: Type.String(),
});

/** GET /api/certificates/{code}: what a valid code certifies, recomputed now. */
export const CertificateAnswer = Type.Object({
  /** The code in its printed form (normalised: upper case, grouped). */
  code: Type.String(),
  kind: Type.Union([Type.Literal('participant'), Type.Literal('team')]),
  /** The participant's full name, or the team's name for a team's certificate. */
  name: Type.String(),
  team_name: Type.String(),
  /** km, two decimals: the participant's own (a participant's certificate) or the team's. */
  distance: Type.Number(),
  /** The team's blue flowers (spec §4; flowers are collected by the team). */
  blueFlowers: Type.Integer(),
  /** Missions the team completed, every lap counted (24 per full lap in 2025). */
  missions: Type.Integer(),
  edition: CertificateEdition,
});
export type CertificateAnswer = Type.Static<typeof CertificateAnswer>;

/** Languages of the public team-progress page (GET /api/share/team/{id}?lang=…); default et. */
export const ShareQuery = Type.Object({ lang: Type.Optional(Type.Union([Type.Literal('et'), Type.Literal('en')])) });
export type ShareQuery = Type.Static<typeof ShareQuery>;
