/**
 * The two languages at the edge of the public contract (spec §1): the TypeBox schemas of the
 * spec's `est`/`eng` and of `et`/`en`, beside the one language type the code uses and its
 * converters (defined with the pure rules in @sinilill/domain, re-exported here for the services
 * and the web client).
 */
import Type from 'typebox';

export {
  DEFAULT_LANGUAGE, LANGUAGES, fromSpecLanguage, toSpecLanguage, type Language, type SpecLanguage,
} from '@sinilill/domain';

/** `est` or `eng`: the spec's language field (registration, password reset, payment order; spec §3, §7). */
export const SpecLanguageSchema = Type.Union([Type.Literal('est'), Type.Literal('eng')]);

/** `et` or `en`: a language named as the page's (the team-progress page's `?lang=`). */
export const LanguageSchema = Type.Union([Type.Literal('et'), Type.Literal('en')]);
