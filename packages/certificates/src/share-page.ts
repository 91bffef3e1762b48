/**
 * The public team-progress page, GET /api/share/team/{id}: the address people
 * share. Crawlers of social networks run no JavaScript, so the server sends the Open Graph and
 * Twitter card tags in the HTML itself (og:title, og:description, og:image with its absolute URL
 * and size, twitter:card summary_large_image). People who open it see the image, the same figures
 * in text, and links to the home page and to the other language. Public figures only (those of
 * GET /api/stats): no member's name.
 *
 * The page carries no script; its one inline style is allowed by its hash (progressPageCsp).
 */
import { createHash } from 'node:crypto';
import { formatCount, TEXTS, type Language } from './texts';
import { SHARE_IMAGE_HEIGHT, SHARE_IMAGE_WIDTH, type ShareFigures } from './share-image';

/** What the page needs besides the figures. */
export interface ProgressPageContent {
  figures: ShareFigures;
  lang: Language;
  /** The page's own absolute address (og:url), e.g. https://sinilill.ee/api/share/team/7?lang=en. */
  pageUrl: string;
  /** The share image's absolute address (og:image). */
  imageUrl: string;
  /** The page in the other language (a relative address is enough). */
  otherLanguageUrl: string;
  /** The site's home page (relative or absolute). */
  homeUrl: string;
}

const STYLE = [
  'body{margin:0;font-family:system-ui,sans-serif;color:#0b1f44;background:#f3f7ff}',
  'main{max-width:960px;margin:0 auto;padding:24px}',
  'img{width:100%;height:auto;border-radius:8px}',
  'a{color:#004a99}',
  'nav{display:flex;gap:24px;flex-wrap:wrap;margin-top:16px}',
].join('');

/** The page's content security policy: nothing but its own images and its one style. */
export const PROGRESS_PAGE_CSP = [
  "default-src 'none'",
  "img-src 'self'",
  `style-src 'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** `value` safe in HTML text and in double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The page's HTML (UTF-8) in `content.lang`. */
export function progressPageHtml(content: ProgressPageContent): string {
  const { figures, lang } = content;
  const t = TEXTS[lang];
  const km = formatCount(figures.distance, lang);
  const flowers = formatCount(figures.blueFlowers, lang);
  const missions = String(figures.missionsInLap);
  const title = t.progressTitle(figures.teamName);
  const description = t.progressDescription(km, flowers, missions, figures.missionsPerLap, figures.laps + 1);
  const meta = (attribute: 'property' | 'name', key: string, value: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(value)}">`;
  return [
    '<!doctype html>',
    `<html lang="${lang}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    meta('name', 'description', description),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', 'Sinilill'),
    meta('property', 'og:locale', lang === 'et' ? 'et_EE' : 'en_GB'),
    meta('property', 'og:title', title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', content.pageUrl),
    meta('property', 'og:image', content.imageUrl),
    meta('property', 'og:image:type', 'image/png'),
    meta('property', 'og:image:width', String(SHARE_IMAGE_WIDTH)),
    meta('property', 'og:image:height', String(SHARE_IMAGE_HEIGHT)),
    meta('property', 'og:image:alt', t.imageAlt(figures.teamName, km, flowers, missions, figures.missionsPerLap, figures.laps + 1)),
    meta('name', 'twitter:card', 'summary_large_image'),
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<main>',
    `<h1>${escapeHtml(figures.teamName)}</h1>`,
    `<img src="${escapeHtml(content.imageUrl)}" width="${SHARE_IMAGE_WIDTH}" height="${SHARE_IMAGE_HEIGHT}" alt="${escapeHtml(t.imageAlt(figures.teamName, km, flowers, missions, figures.missionsPerLap, figures.laps + 1))}">`,
    `<p>${escapeHtml(description)}</p>`,
    '<nav>',
    `<a href="${escapeHtml(content.homeUrl)}">${escapeHtml(t.home)}</a>`,
    `<a href="${escapeHtml(content.otherLanguageUrl)}" lang="${lang === 'et' ? 'en' : 'et'}">${escapeHtml(t.otherLanguage)}</a>`,
    '</nav>',
    '</main>',
    '</body>',
    '</html>',
  ].join('\n');
}
