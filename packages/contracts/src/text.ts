/**
 * Safe text at the boundary: every string a request carries — bodies, path
 * parameters, query strings — is declared with one of the two helpers below, so that nothing
 * PostgreSQL or a read model cannot store ever enters an event.
 *
 * - No NUL (PostgreSQL `text` cannot hold U+0000: a projection writing it fails for ever).
 * - No lone UTF-16 surrogate (U+D800–U+DFFF not part of a pair: not Unicode, jsonb refuses it).
 * - No C0 control (U+0000–U+001F), DEL (U+007F) or C1 control (U+0080–U+009F), except, in
 *   multi-line text only (a team's description), tab, line feed and carriage return.
 *
 * Strings with a stricter pattern of their own (dates, UUIDs, digits, codes of an alphabet) are
 * safe by that pattern and keep it (a string has one pattern); a control character in them is
 * INVALID_REQUEST, NUL or a lone surrogate INVALID_CHARACTERS (packages/http checks every string).
 *
 * A refused string answers 400 `{ message: 'INVALID_CHARACTERS' }` (packages/http maps a failure
 * of these patterns, and any string anywhere in a request holding a character that no field
 * allows, to that code). The patterns are JSON Schema patterns compiled with the `u` flag (as
 * TypeBox does), under which a well-formed surrogate pair is one code point and never matches
 * `\uD800-\uDFFF`.
 */
import Type from 'typebox';

/** Pattern of a single-line text (names, e-mails, codes, passwords, ids): no control characters at all. */
export const SINGLE_LINE_PATTERN = '^[^\\u0000-\\u001F\\u007F-\\u009F\\uD800-\\uDFFF]*$';

/** Pattern of a multi-line text (descriptions): tab, line feed and carriage return allowed. */
export const MULTI_LINE_PATTERN = '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\uD800-\\uDFFF]*$';

/** Both safe-text patterns: a validation failure of one of them is INVALID_CHARACTERS, not INVALID_REQUEST. */
export const SAFE_TEXT_PATTERNS: readonly string[] = [SINGLE_LINE_PATTERN, MULTI_LINE_PATTERN];

const SINGLE_LINE = new RegExp(SINGLE_LINE_PATTERN, 'u');
const MULTI_LINE = new RegExp(MULTI_LINE_PATTERN, 'u');
/** A character no text anywhere may hold (the multi-line rule's complement, as a search). */
const NEVER_ALLOWED = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uD800-\uDFFF]/u;

type StringOptions = Omit<Type.TStringOptions, 'pattern'>;

/**
 * A single-line string field (SINGLE_LINE_PATTERN) with the usual TypeBox string options
 * (minLength, maxLength, …). Use it for every string of a request that is not multi-line.
 */
export function SingleLine(options: StringOptions = {}) {
  return Type.String({ ...options, pattern: SINGLE_LINE_PATTERN });
}

/** A multi-line string field (MULTI_LINE_PATTERN): tab and line breaks allowed, other controls not. */
export function MultiLine(options: StringOptions = {}) {
  return Type.String({ ...options, pattern: MULTI_LINE_PATTERN });
}

/** True when `text` is a valid single-line text (see the module's rules). */
export function isSingleLineText(text: string): boolean {
  return SINGLE_LINE.test(text);
}

/** True when `text` is a valid multi-line text (see the module's rules). */
export function isMultiLineText(text: string): boolean {
  return MULTI_LINE.test(text);
}

/**
 * The path (`/a/0/b`, JSON-pointer-like; `` for `value` itself) of the first string in `value`
 * (a parsed request part: body, query, params; keys included) holding a character that no text
 * may hold — NUL, a lone surrogate, a control other than tab, line feed and carriage return —
 * or null when there is none. Walks plain objects and arrays only, at most `maxDepth` levels.
 */
export function findUnsafeText(value: unknown, maxDepth = 32): string | null {
  const walk = (node: unknown, path: string, depth: number): string | null => {
    if (typeof node === 'string') return NEVER_ALLOWED.test(node) ? path : null;
    if (depth >= maxDepth || node === null || typeof node !== 'object') return null;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const found = walk(node[i], `${path}/${i}`, depth + 1);
        if (found !== null) return found;
      }
      return null;
    }
    // Plain objects only: Object.prototype, none, or a prototype of its own without one (Fastify's
    // query parser, fast-querystring, makes its objects so: the query string went unchecked while
    // this looked for Object.prototype or null alone). A Buffer, a Date: no text of the client's.
    const prototype = Object.getPrototypeOf(node) as object | null;
    if (prototype !== null && Object.getPrototypeOf(prototype) !== null) return null;
    for (const [key, child] of Object.entries(node)) {
      if (NEVER_ALLOWED.test(key)) return `${path}/${escapeKey(key)}`;
      const found = walk(child, `${path}/${key}`, depth + 1);
      if (found !== null) return found;
    }
    return null;
  };
  return walk(value, '', 0);
}

/** A key as a log can show it: its unsafe characters as \u escapes. */
function escapeKey(key: string): string {
  return key.replace(new RegExp(NEVER_ALLOWED.source, 'gu'), (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
