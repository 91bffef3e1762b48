/**
 * Where the news page's stories come from (spec §2 "News", §7 POST /strapi/story): Strapi 5 when
 * STRAPI_URL is configured, otherwise the project's own content files. Both give a NewsAnswer
 * (packages/contracts/src/news.ts), newest first.
 *
 * Strapi's REST answer is mapped here and nowhere else: `{ data: [{ documentId, title,
 * body|content, publishedAt, image|cover }] }` (Strapi 4's `{ id, attributes }` and
 * `{ data: { attributes } }` media wrappers are unwrapped too). Rich text ("blocks") becomes
 * plain-text paragraphs, headings, quotes and lists; a Markdown string becomes paragraphs.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Value } from 'typebox/value';
import { NewsAnswer, type Language, type NewsBlock, type NewsImage, type NewsStory } from '@sinilill/contracts';

/** Answers the stories of one language; rejects when the source cannot be read. */
export type NewsSource = (locale: Language) => Promise<NewsAnswer>;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function integer(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

/** The text of an inline node tree (text nodes, links and their children), formatting dropped. */
function inlineText(nodes: unknown): string {
  if (!Array.isArray(nodes)) return '';
  return nodes
    .map((node) => {
      if (!isObject(node)) return '';
      if (typeof node.text === 'string') return node.text;
      return inlineText(node.children);
    })
    .join('');
}

/** Strapi 5 rich text (the "blocks" editor's JSON) as the answer's plain-text blocks. */
export function blocksFromStrapi(blocks: unknown[]): NewsBlock[] {
  const result: NewsBlock[] = [];
  for (const block of blocks) {
    if (!isObject(block)) continue;
    const children = block.children;
    switch (block.type) {
      case 'heading': {
        const value = inlineText(children).trim();
        if (value) result.push({ type: 'heading', text: value });
        break;
      }
      case 'quote': {
        const value = inlineText(children).trim();
        if (value) result.push({ type: 'quote', text: value });
        break;
      }
      case 'list': {
        const items = (Array.isArray(children) ? children : [])
          .map((item) => (isObject(item) ? inlineText(item.children).trim() : ''))
          .filter((item) => item !== '');
        if (items.length > 0) result.push({ type: 'list', ordered: block.format === 'ordered', items });
        break;
      }
      case 'image':
        // Pictures inside the text are left out; a story shows its one cover image.
        break;
      default: {
        // paragraph, code, and any kind a later Strapi adds: keep its words.
        const value = inlineText(children).trim();
        if (value) result.push({ type: 'paragraph', text: value });
      }
    }
  }
  return result;
}

/**
 * A Markdown or plain-text body as blocks: blank lines separate paragraphs, "# " lines are
 * headings, "- " / "* " / "1. " runs are lists, "> " lines quotes. Other markup stays as typed.
 */
export function blocksFromText(body: string): NewsBlock[] {
  const result: NewsBlock[] = [];
  for (const chunk of body.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const lines = chunk.split('\n').map((line) => line.trim()).filter((line) => line !== '');
    if (lines.length === 0) continue;
    const first = lines[0]!;
    if (lines.length === 1 && /^#{1,6}\s+/.test(first)) {
      result.push({ type: 'heading', text: first.replace(/^#{1,6}\s+/, '') });
    } else if (lines.every((line) => /^[-*]\s+/.test(line))) {
      result.push({ type: 'list', ordered: false, items: lines.map((line) => line.replace(/^[-*]\s+/, '')) });
    } else if (lines.every((line) => /^\d+[.)]\s+/.test(line))) {
      result.push({ type: 'list', ordered: true, items: lines.map((line) => line.replace(/^\d+[.)]\s+/, '')) });
    } else if (lines.every((line) => line.startsWith('>'))) {
      result.push({ type: 'quote', text: lines.map((line) => line.replace(/^>\s?/, '')).join(' ') });
    } else {
      result.push({ type: 'paragraph', text: lines.join(' ') });
    }
  }
  return result;
}

/** Strapi's media object (v5 flat, v4 `{ data: { attributes } }`, or a list: the first) as a picture. */
function imageFromStrapi(value: unknown, baseUrl: string): NewsImage | null {
  let media: unknown = value;
  if (Array.isArray(media)) media = media[0];
  if (isObject(media) && 'data' in media) media = media.data;
  if (Array.isArray(media)) media = media[0];
  if (isObject(media) && isObject(media.attributes)) media = media.attributes;
  if (!isObject(media)) return null;
  // The "medium" rendition (up to 750 px wide) is plenty for the page; the original otherwise.
  const formats = isObject(media.formats) ? media.formats : {};
  const rendition = [formats.medium, formats.small, media].find((candidate) => isObject(candidate) && text(candidate.url)) as Json | undefined;
  const url = rendition ? text(rendition.url) : null;
  if (!url || !rendition) return null;
  let absolute: string;
  try {
    absolute = new URL(url, `${baseUrl}/`).toString();
  } catch {
    return null;
  }
  return {
    url: absolute,
    alt: text(media.alternativeText),
    width: integer(rendition.width),
    height: integer(rendition.height),
  };
}

function instant(value: unknown): string | null {
  const raw = text(value);
  if (!raw || Number.isNaN(Date.parse(raw))) return null;
  return new Date(raw).toISOString();
}

/** Newest first; equal instants keep their order. */
function newestFirst(stories: NewsStory[]): NewsStory[] {
  return [...stories].sort((a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt));
}

/**
 * Strapi's REST answer (GET /api/stories) as stories. `baseUrl` resolves relative media URLs
 * (Strapi's local upload provider answers "/uploads/…"). Entries without a title and a body, or
 * without a publication instant, are left out.
 * @throws Error when the answer is not `{ data: [...] }`.
 */
export function storiesFromStrapi(answer: unknown, baseUrl: string): NewsStory[] {
  if (!isObject(answer) || !Array.isArray(answer.data)) throw new Error('Strapi answer has no data list');
  const stories: NewsStory[] = [];
  for (const item of answer.data) {
    if (!isObject(item)) continue;
    const fields = isObject(item.attributes) ? { ...item.attributes, id: item.id } : item;
    const id = text(fields.documentId) ?? (fields.id === undefined || fields.id === null ? null : String(fields.id));
    const title = text(fields.title) ?? text(fields.Title) ?? '';
    const rawBody = fields.body ?? fields.content ?? fields.text ?? fields.description;
    const body = Array.isArray(rawBody) ? blocksFromStrapi(rawBody) : typeof rawBody === 'string' ? blocksFromText(rawBody) : [];
    const publishedAt = instant(fields.publishedAt) ?? instant(fields.published_at) ?? instant(fields.createdAt);
    if (!id || !publishedAt || (title === '' && body.length === 0)) continue;
    stories.push({ id, title, body, publishedAt, image: imageFromStrapi(fields.image ?? fields.cover ?? fields.picture, baseUrl) });
  }
  return newestFirst(stories);
}

export interface StrapiSourceOptions {
  /** Strapi's address, e.g. https://cms.example.ee (no trailing slash). */
  url: string;
  /** Read-only API token, sent as a bearer token; null for public content. */
  token: string | null;
  /** Give up after this long, ms; default 5000. */
  timeoutMs?: number;
}

/** Stories from Strapi 5: GET {url}/api/stories?locale=…&sort=publishedAt:desc&populate=*. */
export function strapiSource({ url, token, timeoutMs = 5000 }: StrapiSourceOptions): NewsSource {
  return async (locale) => {
    const query = new URLSearchParams({ locale, sort: 'publishedAt:desc', populate: '*' });
    const response = await fetch(`${url}/api/stories?${query.toString()}`, {
      headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new Error(`Strapi answered ${response.status}`);
    return { stories: storiesFromStrapi(await response.json(), url) };
  };
}

/**
 * Stories from `<dir>/<locale>.json`, each file a NewsAnswer. A missing file means no stories.
 * @throws Error when a file exists but is not a valid NewsAnswer.
 */
export function localSource(dir: string): NewsSource {
  return async (locale) => {
    let raw: string;
    try {
      raw = await readFile(join(dir, `${locale}.json`), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { stories: [] };
      throw error;
    }
    const parsed: unknown = JSON.parse(raw);
    if (!Value.Check(NewsAnswer, parsed)) throw new Error(`${locale}.json in ${dir} is not a NewsAnswer`);
    return { stories: newestFirst(parsed.stories) };
  };
}

/**
 * `source` with each language's answer kept for `ttlMs` (not failures): the news changes rarely,
 * and the content service need not be asked on every page view. `now` is a millisecond clock.
 */
export function cachedSource(source: NewsSource, ttlMs: number, now: () => number = () => performance.now()): NewsSource {
  if (ttlMs <= 0) return source;
  const cache = new Map<Language, { at: number; answer: Promise<NewsAnswer> }>();
  return (locale) => {
    const hit = cache.get(locale);
    if (hit && now() - hit.at < ttlMs) return hit.answer;
    const answer = source(locale);
    cache.set(locale, { at: now(), answer });
    // A failure is not kept: the next request asks again.
    answer.catch(() => {
      if (cache.get(locale)?.answer === answer) cache.delete(locale);
    });
    return answer;
  };
}

export interface NewsOptions {
  /** Strapi's address (config.strapiUrl); null or absent: the local content files. */
  strapiUrl?: string | null;
  /** Strapi's read-only API token (config.strapiToken). */
  strapiToken?: string | null;
  /** Folder of the local content files <locale>.json; default infra/content/news. */
  contentDir?: string;
  /** How long an answer is reused, ms; default 60 000 for Strapi, 0 (read every time) locally. */
  cacheMs?: number;
  /** Strapi request timeout, ms; default 5000. */
  timeoutMs?: number;
  /** The app's clock: stories published after it are not served yet. Default: the system's. */
  now?: () => Date;
}
