/**
 * The news page's stories (spec §2 "News", §7 POST /api/strapi/story). The query API reads them
 * from Strapi when STRAPI_URL is set, otherwise from the project's own content files
 * (infra/content/news/<locale>.json, which hold exactly a NewsAnswer). Either way the client sees
 * this one shape: rich text is reduced to a few plain-text block kinds, so the client needs no
 * Strapi renderer and never renders HTML from the content service.
 */
import Type from 'typebox';
import type { Language } from './language';

/** The request's locale: the page's language, as i18next (et, en) or as stored (est, eng; spec §1). */
export const NewsLocale = Type.Union([Type.Literal('et'), Type.Literal('en'), Type.Literal('est'), Type.Literal('eng')]);
export type NewsLocale = Type.Static<typeof NewsLocale>;

/** POST /api/strapi/story */
export const NewsRequest = Type.Object({ locale: NewsLocale }, { additionalProperties: false });
export type NewsRequest = Type.Static<typeof NewsRequest>;

/** One block of a story's body, plain text only (inline formatting is dropped, link texts kept). */
export const NewsBlock = Type.Union([
  Type.Object({ type: Type.Literal('paragraph'), text: Type.String() }),
  Type.Object({ type: Type.Literal('heading'), text: Type.String() }),
  Type.Object({ type: Type.Literal('quote'), text: Type.String() }),
  Type.Object({ type: Type.Literal('list'), ordered: Type.Boolean(), items: Type.Array(Type.String()) }),
]);
export type NewsBlock = Type.Static<typeof NewsBlock>;

/** A story's picture: an absolute URL (or a site path) and its alternative text (null: decorative). */
export const NewsImage = Type.Object({
  url: Type.String({ minLength: 1 }),
  alt: Type.Union([Type.String(), Type.Null()]),
  width: Type.Union([Type.Integer(), Type.Null()]),
  height: Type.Union([Type.Integer(), Type.Null()]),
});
export type NewsImage = Type.Static<typeof NewsImage>;

export const NewsStory = Type.Object({
  /** Stable across edits (Strapi 5's documentId, or the content file's id). */
  id: Type.String({ minLength: 1 }),
  title: Type.String(),
  body: Type.Array(NewsBlock),
  /** ISO-8601 instant; the page shows its Europe/Tallinn day as DD-MMM-YYYY. */
  publishedAt: Type.String(),
  image: Type.Union([NewsImage, Type.Null()]),
});
export type NewsStory = Type.Static<typeof NewsStory>;

/** The answer: newest first. An empty list is a normal answer (the page says "No updates"). */
export const NewsAnswer = Type.Object({ stories: Type.Array(NewsStory) });
export type NewsAnswer = Type.Static<typeof NewsAnswer>;

/** The two content languages, whichever way the request named them. */
export function newsContentLocale(locale: NewsLocale): Language {
  return locale === 'en' || locale === 'eng' ? 'en' : 'et';
}
