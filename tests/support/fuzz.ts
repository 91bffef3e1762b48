/**
 * Hostile requests for the fuzz suite: fast-check arbitraries for whole HTTP
 * requests to the routes the APIs registered, how a generated case becomes bytes on the wire, and
 * the check every answer must pass.
 *
 * A case names its route and the request's parts; what depends on the running app (tokens,
 * cookies, the log's head) is symbolic in the case (`auth: 'member'`) and resolved when it is
 * sent, so a case prints short and shrinks well. Three families:
 *
 * - guided: the route's own schemas (TypeBox, read at run time) fill the body, the query and the
 *   path, valid or with one field made hostile, with real ids of the seeded data, mostly with a
 *   member's or an administrator's token — requests that get past validation into the deciders,
 *   the read models and the database;
 * - hostile: any JSON (deep, huge numbers, -0, 1e308, long strings, NUL, lone surrogates, control
 *   characters, `__proto__` and `constructor` keys, arrays for objects, the contracts' field names
 *   with wrong types), hostile path segments and query strings, and every header variant;
 * - raw: what JSON.stringify cannot produce — invalid UTF-8, truncated JSON, a BOM, trailing
 *   garbage, deep nesting, random bytes, bodies over the limit, chunked bodies, odd methods and
 *   request targets.
 */
import fc from 'fast-check';
import * as contracts from '@sinilill/contracts';
import { ERROR_CODES } from '@sinilill/domain';
import type { CollectedRoute } from './running-app';
import type { RawRequest, RawResponse } from './raw-http';

/** JSON text written verbatim (numbers JSON.stringify cannot produce, broken JSON). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A JSON object as key/value pairs: duplicate keys and `__proto__` as an own key. */
export class Pairs {
  constructor(readonly entries: readonly (readonly [string, unknown])[]) {}
}

/** JSON text of a generated value (RawJson verbatim, Pairs in order, undefined as null). */
export function jsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof Pairs) return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Every property name the contracts' schemas declare (request and answer fields alike). */
export function contractFieldNames(): string[] {
  const names = new Set<string>();
  const seen = new Set<unknown>();
  const walk = (node: unknown, depth: number) => {
    if (depth > 12 || node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const schema = node as { properties?: Record<string, unknown> };
    if (schema.properties && typeof schema.properties === 'object') {
      for (const name of Object.keys(schema.properties)) names.add(name);
    }
    for (const child of Object.values(node)) walk(child, depth + 1);
  };
  for (const value of Object.values(contracts)) walk(value, 0);
  return [...names].sort();
}

// ---------------------------------------------------------------------------------------------
// Strings, numbers and JSON

/** Strings that have broken parsers, databases or validators somewhere. */
const NASTY_STRINGS = [
  '', ' ', '\u0000', 'a\u0000b', '\ud800', '\udfff', 'x\ud800y', '\udc00\ud800', '\u0007', '\u001b[31m', '\u007f', '\u0085',
  '\u009f', '\u2028', '\u2029', '\u202e', '\ufeff', '\uffff', '\ufffe', '\t', 'a\nb', 'a\rb', '😀', 'ä', 'ÄÖÜõ', '𝕳𝖊𝖑𝖑𝖔',
  'null', 'undefined', 'NaN', 'Infinity', '-0', '1e308', '0x10', 'true', 'false', '{}', '[]', '""', '__proto__', 'constructor',
  'prototype', 'toString', 'hasOwnProperty', '<script>alert(1)</script>', "' OR 1=1 --", '"; DROP TABLE es.events; --',
  '${7*7}', '{{7*7}}', '../../etc/passwd', '..\\..\\windows', '%00', '%ED%A0%80', '\\', '"', "'", '\\u0000', 'a'.repeat(65),
  'a'.repeat(257), 'ADMIN', 'SYSTEM', 'WALK', 'OTHER', '2025-04-14', '2025-02-30', '0000-00-00', '9999-12-31', '2025-04-14T25:00:00Z',
  'JOIN_TEAM', 'REGISTER_TEAM', 'est', 'eng', 'MALE', 'EE', 'sandbox', 'montonio', 'team-1', 'entry-1', 'settings', 'operations',
  '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '\u0130', 'ß', 'ﬁ', 'Ǆ', '\u0301', 'e\u0301',
];

/** Any UTF-16 code unit (lone surrogates, NUL and controls included). */
const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
/** Mostly printable, sometimes anything. */
const mixedUnit = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: anyUnit },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', '\ud800', '\udfff', '\u001f', '\u007f', '\u009b', '\u2028') },
);

/** A long string (1 000 … 100 000 code units) of one repeated piece. */
const longString = fc.tuple(fc.integer({ min: 1_000, max: 100_000 }), fc.constantFrom('a', 'ä', '😀', ' ', '\u0000', '\ud800', 'ab\u0001', '<', '\\', '"'))
  .map(([length, piece]) => piece.repeat(Math.ceil(length / piece.length)).slice(0, length));

/** A hostile string: nasty constants, random units, long repetitions. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 4, arbitrary: fc.string({ unit: mixedUnit, maxLength: 40 }) },
  { weight: 1, arbitrary: longString },
);

/** Number tokens JSON.stringify cannot write, and numbers at every boundary. */
const RAW_NUMBERS = ['-0', '1e309', '-1e309', '1E400', '123456789012345678901234567890', '1e-400', '0.1e-400', '1.7976931348623157e308',
  '9007199254740993', '-9223372036854775809', '2147483648', '4294967296', '1.0', '1e2', '100.000000000000000001', '0.005', '1.005'];

export const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -1, 1, 2, 0.1, 0.01, 0.001, 1.005, 99999.99, 100000, 100000.01, 2147483647, 2147483648, -2147483649,
    Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, -Number.MAX_SAFE_INTEGER, 1e308, 5e-324, 1e21, 1e-7),
  fc.double(),
  fc.constantFrom(...RAW_NUMBERS).map((text) => new RawJson(text)),
);

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', '__defineGetter__', 'toString', 'valueOf', 'hasOwnProperty'];

/** Keys of hostile objects: the contracts' field names, prototype keys, anything. */
function keyArbitrary(fieldNames: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...fieldNames) },
    { weight: 2, arbitrary: fc.constantFrom(...PROTO_KEYS) },
    { weight: 2, arbitrary: hostileString.filter((s) => s.length < 300) },
  );
}

/** Any JSON value, hostile in every leaf and key, a few levels deep. */
export function hostileJson(fieldNames: readonly string[]): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(
    fc.constant(null), fc.boolean(), hostileNumber, hostileString,
  );
  const key = keyArbitrary(fieldNames);
  const { node } = fc.letrec<{ node: unknown; array: unknown[]; object: Pairs }>((tie) => ({
    node: fc.oneof({ depthSize: 'small', maxDepth: 5 }, leaf, tie('array'), tie('object')),
    array: fc.array(tie('node'), { maxLength: 5 }),
    object: fc.array(fc.tuple(key, tie('node')), { maxLength: 6 }).map((entries) => new Pairs(entries)),
  }));
  return node;
}

// ---------------------------------------------------------------------------------------------
// Values from the routes' schemas

/** A JSON schema as TypeBox writes it (the parts read here). */
interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  const?: unknown;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
}

/** Values of the running app that name real things: ids, positions, UUIDs, codes. */
export interface KnownValues {
  ints: number[];
  strings: string[];
}

function regexOf(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return null;
  }
}

function stringFromSchema(schema: Schema, known: KnownValues): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 60, 300);
  const regex = schema.pattern === undefined ? null : regexOf(schema.pattern);
  const fits = (s: string) => s.length >= min && s.length <= (schema.maxLength ?? Infinity) && (regex === null || regex.test(s));
  const options: fc.WeightedArbitrary<string>[] = [];
  const matching = [...known.strings, ...known.ints.map(String)].filter(fits);
  // Real values first: they get past the deciders' own rules (dates in the edition, existing ids).
  if (matching.length > 0) options.push({ weight: 5, arbitrary: fc.constantFrom(...matching) });
  if (regex !== null) {
    let generator: fc.Arbitrary<string> | null = null;
    try {
      generator = fc.stringMatching(regex);
    } catch {
      generator = null;
    }
    if (generator) {
      options.push({
        weight: 3,
        arbitrary: generator.map((s) => {
          let text = s.slice(0, max);
          while (text.length < min) text += text.length > 0 ? text : 'a';
          return text.slice(0, Math.max(min, max));
        }),
      });
    }
  }
  options.push({ weight: regex === null ? 3 : 1, arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.max(min, max) }) });
  return fc.oneof(...options);
}

function integerFromSchema(schema: Schema, known: KnownValues): fc.Arbitrary<number> {
  const low = Math.max(schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -(2 ** 31)), Number.MIN_SAFE_INTEGER);
  const high = Math.min(schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 2 ** 31), Number.MAX_SAFE_INTEGER);
  if (low > high) return fc.constant(low);
  const inRange = known.ints.filter((n) => n >= low && n <= high);
  return fc.oneof(
    { weight: 2, arbitrary: fc.integer({ min: low, max: Math.min(high, Math.max(low, 0) + 50) }) },
    { weight: 1, arbitrary: fc.integer({ min: low, max: high }) },
    { weight: 1, arbitrary: fc.constantFrom(low, high) },
    ...(inRange.length > 0 ? [{ weight: 5, arbitrary: fc.constantFrom(...inRange) }] : []),
  );
}

function numberFromSchema(schema: Schema): fc.Arbitrary<number> {
  const low = schema.minimum ?? -1e6;
  const high = schema.maximum ?? 1e6;
  return fc.oneof(
    // Amounts as people write them (two decimals, small): distances, sums.
    { weight: 4, arbitrary: fc.integer({ min: Math.ceil(low * 100), max: Math.floor(Math.min(high, low + 60) * 100) }).map((n) => n / 100) },
    { weight: 1, arbitrary: fc.double({ min: low, max: high, noNaN: true, noDefaultInfinity: true }) },
    { weight: 1, arbitrary: fc.constantFrom(low, high) },
  );
}

/** A value the schema accepts (mostly: patterns and lengths are met on a best-effort basis). */
export function fromSchema(schema: Schema | undefined, known: KnownValues, fieldNames: readonly string[], depth = 0): fc.Arbitrary<unknown> {
  if (schema === undefined || depth > 6) return hostileJson(fieldNames);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) return fc.oneof(...alternatives.map((s) => fromSchema(s, known, fieldNames, depth + 1)));
  if (schema.allOf && schema.allOf.length > 0) return fromSchema(schema.allOf[0], known, fieldNames, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) record[name] = fromSchema(property, known, fieldNames, depth + 1);
      return fc.record(record, { requiredKeys: (schema.required ?? []).filter((name) => name in properties) });
    }
    case 'array': {
      const minLength = schema.minItems ?? 0;
      return fc.array(fromSchema(schema.items, known, fieldNames, depth + 1), { minLength, maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 4, 4)) });
    }
    case 'string': return stringFromSchema(schema, known);
    case 'integer': return integerFromSchema(schema, known);
    case 'number': return numberFromSchema(schema);
    case 'boolean': return fc.boolean();
    case 'null': return fc.constant(null);
    default: return hostileJson(fieldNames);
  }
}

/** One change that makes a schema-valid value hostile. */
interface Mutation {
  kind: 'replace' | 'drop' | 'add' | 'to-string' | 'wrap-array' | 'to-array' | 'none';
  at: number;
  key: string;
  value: unknown;
}

/** The paths (key lists) of every node of a plain JSON value, the root first. */
function nodePaths(value: unknown, path: readonly (string | number)[] = [], into: (string | number)[][] = []): (string | number)[][] {
  into.push([...path]);
  if (Array.isArray(value)) value.forEach((item, i) => nodePaths(item, [...path, i], into));
  else if (value !== null && typeof value === 'object' && !(value instanceof RawJson) && !(value instanceof Pairs)) {
    for (const [key, item] of Object.entries(value)) nodePaths(item, [...path, key], into);
  }
  return into;
}

/** A deep copy of a generated value (RawJson and Pairs are immutable and kept; own `__proto__` keys stay own). */
function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (value === null || typeof value !== 'object' || value instanceof RawJson || value instanceof Pairs) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(out, key, { value: copy(item), enumerable: true, configurable: true, writable: true });
  }
  return out;
}

/** `value` (a fresh copy) with the mutation applied. */
export function mutate(value: unknown, mutation: Mutation): unknown {
  if (mutation.kind === 'none') return value;
  const root: { v: unknown } = { v: copy(value) };
  const paths = nodePaths(root.v);
  const path = paths[mutation.at % paths.length] ?? [];
  let parent: Record<string | number, unknown> = root as unknown as Record<string, unknown>;
  let key: string | number = 'v';
  for (const step of path) {
    parent = parent[key] as Record<string | number, unknown>;
    key = step;
  }
  const target = parent[key];
  switch (mutation.kind) {
    case 'replace': parent[key] = mutation.value; break;
    case 'drop': if (path.length > 0 && !Array.isArray(parent)) delete parent[key]; else parent[key] = undefined; break;
    case 'add':
      if (target instanceof Pairs) {
        parent[key] = new Pairs([...target.entries, [mutation.key, mutation.value]]);
      } else if (target !== null && typeof target === 'object' && !Array.isArray(target) && !(target instanceof RawJson)) {
        // An own property even for `__proto__`, as JSON.parse makes it.
        Object.defineProperty(target, mutation.key, { value: mutation.value, enumerable: true, configurable: true, writable: true });
      } else {
        parent[key] = new Pairs([[mutation.key, mutation.value]]);
      }
      break;
    case 'to-string': parent[key] = typeof target === 'string' ? target : jsonText(target); break;
    case 'wrap-array': parent[key] = [target]; break;
    case 'to-array': parent[key] = target !== null && typeof target === 'object' ? Object.values(target) : [target]; break;
  }
  return root.v;
}

function mutationArbitrary(fieldNames: readonly string[]): fc.Arbitrary<Mutation> {
  return fc.record({
    kind: fc.constantFrom<Mutation['kind']>('replace', 'replace', 'replace', 'drop', 'add', 'to-string', 'wrap-array', 'to-array', 'none'),
    at: fc.nat(),
    key: keyArbitrary(fieldNames),
    value: fc.oneof({ weight: 3, arbitrary: hostileJson(fieldNames) }, { weight: 1, arbitrary: longString }),
  });
}

// ---------------------------------------------------------------------------------------------
// Request parts

/** Percent-encodes every byte of the UTF-8 form but the unreserved characters (a lone surrogate becomes U+FFFD). */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Path segments as written on the wire: out-of-range ids, traversal, broken escapes, raw bytes. */
const HOSTILE_SEGMENTS = [
  '0', '-1', '1', '2', '3', '2147483647', '2147483648', '4294967296', '99999999999999999999', '1e3', '1.5', '01', '+1', ' 1', '%201',
  '0x1f', '..', '../', '..%2F', '%2e%2e', '%2e%2e%2fadmin', '%00', '1%00', '%ED%A0%80', '%FF', '%C0%AF', '%', '%zz', '%2', '%20',
  'null', 'undefined', 'NaN', 'Infinity', '__proto__', 'constructor', '', 'ä', '%C3%A4', '😀', '%F0%9F%98%80', ';', '%3B', '%3F',
  '%23', '%2F', '//', 'a'.repeat(300), '9'.repeat(2000), 'user', 'team', 'entry', 'admin', 'sandbox', 'x.webp', 'a.svg',
];

/** A path segment for `:name`, given its schema: valid, a real id, or hostile. */
function segmentArbitrary(schema: Schema | undefined, known: KnownValues, fieldNames: readonly string[], mode: FuzzMode): fc.Arbitrary<string> {
  const valid = schema ? fromSchema(schema, known, fieldNames).map((v) => percentEncode(typeof v === 'string' ? v : jsonText(v))) : null;
  const real = fc.constantFrom('1', ...known.ints.map(String), ...known.strings).map(percentEncode);
  const hostile = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
    { weight: 2, arbitrary: hostileString.filter((s) => s.length < 2000).map(percentEncode) },
  );
  const validWeight = mode === 'guided' ? 6 : 1;
  return fc.oneof(
    ...(valid ? [{ weight: validWeight, arbitrary: valid }] : []),
    { weight: mode === 'guided' ? 4 : 2, arbitrary: real },
    { weight: mode === 'guided' ? 1 : 4, arbitrary: hostile },
  );
}

/** The rest of a wildcard route (`*`): a few segments. */
function wildcardArbitrary(known: KnownValues, fieldNames: readonly string[], mode: FuzzMode): fc.Arbitrary<string> {
  return fc.array(segmentArbitrary(undefined, known, fieldNames, mode), { minLength: 0, maxLength: 4 }).map((segments) => segments.join('/'));
}

const QUERY_VALUE_CONSTANTS = ['', '%00', '%ED%A0%80', '%', '%zz', 'a%2', 'a+b', '1', '0', '-1', 'true', '1e3', '99999999999999999999',
  'ndjson', 'csv', 'all', 'open', 'none', 'team', 'entry', 'user', 'settings', 'operations', '2025-04-14T00:00:00Z', 'x'.repeat(20_000)];

/** A query string (without `?`): the schema's keys and any others, repeated keys, brackets, broken escapes. */
function queryArbitrary(schema: Schema | undefined, known: KnownValues, fieldNames: readonly string[], mode: FuzzMode): fc.Arbitrary<string | null> {
  const properties = schema?.properties ?? {};
  const schemaKeys = Object.keys(properties);
  const key = fc.oneof(
    ...(schemaKeys.length > 0 ? [{ weight: mode === 'guided' ? 8 : 3, arbitrary: fc.constantFrom(...schemaKeys) }] : []),
    { weight: 1, arbitrary: fc.constantFrom(...fieldNames) },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor[prototype]', 'a[]', 'a[b][c]', 'status', 'order-token', 'session', 'format', 'limit', 'after', 'team') },
    { weight: 1, arbitrary: hostileString.filter((s) => s.length < 500).map(percentEncode) },
  );
  const value = (name: string) => {
    const property = properties[name];
    return fc.oneof(
      ...(property ? [{ weight: mode === 'guided' ? 6 : 2, arbitrary: fromSchema(property, known, fieldNames).map((v) => percentEncode(typeof v === 'string' ? v : jsonText(v))) }] : []),
      { weight: 2, arbitrary: fc.constantFrom(...QUERY_VALUE_CONSTANTS) },
      { weight: 2, arbitrary: hostileString.filter((s) => s.length < 5000).map(percentEncode) },
    );
  };
  const pair = key.chain((name) => fc.oneof(
    { weight: 8, arbitrary: value(name).map((v) => `${name}=${v}`) },
    { weight: 1, arbitrary: fc.constant(name) },
    { weight: 1, arbitrary: value(name).map((v) => `${name}[]=${v}`) },
  ));
  return fc.oneof(
    { weight: mode === 'guided' ? 2 : 3, arbitrary: fc.constant(null) },
    { weight: 4, arbitrary: fc.array(pair, { minLength: 1, maxLength: 5 }).map((pairs) => pairs.join('&')) },
    { weight: 1, arbitrary: fc.constantFrom('', '&', '&&=', '=', '?', '#frag', '%', 'a=1&a=2&a=3', 'a[0]=1&a[1]=2') },
  );
}

/** Who the request claims to be: resolved to a header value when sent (tokens change as sessions do). */
export type AuthKind =
  | 'none' | 'member' | 'admin' | 'expired' | 'foreign-secret' | 'alg-none' | 'unknown-session' | 'forged-role' | 'lowercase'
  | 'padded' | 'truncated' | 'empty-bearer' | 'basic' | 'board-token' | 'text';

export type CookieKind = 'none' | 'refresh' | 'board' | 'both' | 'refresh-garbage' | 'board-garbage' | 'text';

export type MinPositionKind = 'none' | 'zero' | 'head' | 'past' | 'future' | 'text';

/** Credentials and state of the running app a case refers to symbolically. */
export interface Resolved {
  member: string;
  admin: string;
  expired: string;
  foreignSecret: string;
  algNone: string;
  unknownSession: string;
  forgedRole: string;
  boardToken: string;
  refreshCookie: string;
  boardCookie: string;
  head: number;
}

export type FuzzBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; label: string; bytes: Buffer };

export type FuzzMode = 'guided' | 'hostile' | 'raw';

export interface FuzzCase {
  mode: FuzzMode;
  route: CollectedRoute;
  method: string;
  /** The route's pattern with each `:param` and `*` filled in (wire form). */
  path: string;
  query: string | null;
  auth: { kind: AuthKind; text: string };
  cookie: { kind: CookieKind; text: string };
  contentType: string | null;
  idempotencyKey: string | null;
  minPosition: { kind: MinPositionKind; text: string };
  correlationId: string | null;
  extraHeaders: [string, string][];
  body: FuzzBody;
  chunked: boolean;
}

/** A header value as a hostile client may write it: anything but CR and LF (which would end the header). */
const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', 'null', '0', '-1', 'a'.repeat(8_000), '\t', '\u0001', '\u007f', 'ä', '😀', '\u0000', '""', '*', ',', ';', '127.0.0.1',
    '::1', '1.2.3.4, 5.6.7.8', 'unknown', 'for=1.2.3.4;proto=https', 'gzip', 'br', 'identity', 'bytes=0-1', 'bytes=-1', 'W/"x"', 'http://evil.example',
    'x'.repeat(100_000)),
  fc.string({ unit: mixedUnit, maxLength: 60 }),
).map((value) => value.replace(/[\r\n]/g, ' '));

const EXTRA_HEADER_NAMES = [
  'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-real-ip', 'forwarded', 'accept', 'accept-encoding', 'accept-language',
  'origin', 'referer', 'if-none-match', 'if-modified-since', 'range', 'user-agent', 'x-http-method-override', 'x-requested-with',
  'content-encoding', 'expect', 'authorization', 'x-min-position', 'idempotency-key', 'content-type', 'cookie', 'last-event-id', 'te',
  'upgrade', 'x-correlation-id',
];

const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'application/json;charset=UTF-16',
  'APPLICATION/JSON', 'application/json, text/plain', 'application/vnd.api+json', 'application/problem+json', 'text/plain',
  'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz', 'multipart/form-data',
  'application/octet-stream', 'image/png', 'text/html', '', ' ', ';', 'application/', '/json', 'json', 'application/json; boundary=',
  'application/json; charset=', 'application/json\u0000', '*/*',
];

function authArbitrary(mode: FuzzMode): fc.Arbitrary<{ kind: AuthKind; text: string }> {
  const kinds: fc.WeightedArbitrary<AuthKind>[] = mode === 'guided'
    ? [
      { weight: 6, arbitrary: fc.constant('member') }, { weight: 5, arbitrary: fc.constant('admin') }, { weight: 2, arbitrary: fc.constant('none') },
      { weight: 1, arbitrary: fc.constantFrom<AuthKind>('expired', 'unknown-session', 'forged-role', 'board-token') },
    ]
    : [
      { weight: 3, arbitrary: fc.constant('none') }, { weight: 3, arbitrary: fc.constant('member') }, { weight: 3, arbitrary: fc.constant('admin') },
      {
        weight: 6,
        arbitrary: fc.constantFrom<AuthKind>('expired', 'foreign-secret', 'alg-none', 'unknown-session', 'forged-role', 'lowercase', 'padded',
          'truncated', 'empty-bearer', 'basic', 'board-token', 'text', 'text'),
      },
    ];
  return fc.tuple(fc.oneof(...kinds), fc.oneof(headerValue, headerValue.map((v) => `Bearer ${v}`))).map(([kind, text]) => ({ kind, text: kind === 'text' ? text : '' }));
}

function cookieArbitrary(mode: FuzzMode, board: boolean): fc.Arbitrary<{ kind: CookieKind; text: string }> {
  const kinds = mode === 'guided'
    ? fc.oneof(
      { weight: board ? 2 : 8, arbitrary: fc.constant<CookieKind>('none') },
      { weight: board ? 8 : 2, arbitrary: board ? fc.constantFrom<CookieKind>('board', 'board', 'both') : fc.constantFrom<CookieKind>('refresh', 'board', 'both') },
    )
    : fc.oneof(
      { weight: 5, arbitrary: fc.constant<CookieKind>('none') },
      { weight: 3, arbitrary: fc.constantFrom<CookieKind>('refresh', 'board', 'both', 'refresh-garbage', 'board-garbage', 'text') },
    );
  return fc.tuple(kinds, headerValue).map(([kind, text]) => ({ kind, text: kind === 'none' || kind === 'refresh' || kind === 'board' || kind === 'both' ? '' : text }));
}

function minPositionArbitrary(mode: FuzzMode): fc.Arbitrary<{ kind: MinPositionKind; text: string }> {
  const text = fc.constantFrom('-1', 'abc', '1e3', '99999999999999999', '0x10', '', ' 1', '1 ', '1,2', '١٢', '1.5', '+1', '00', '0'.repeat(40), '\u0000');
  return fc.oneof(
    { weight: mode === 'guided' ? 12 : 8, arbitrary: fc.constant({ kind: 'none' as const, text: '' }) },
    { weight: 2, arbitrary: fc.constantFrom<MinPositionKind>('zero', 'head', 'past').map((kind) => ({ kind, text: '' })) },
    // Beyond the head: the query API waits its whole read-your-writes bound, then answers.
    { weight: 1, arbitrary: fc.constant({ kind: 'future' as const, text: '' }) },
    { weight: 2, arbitrary: text.map((t) => ({ kind: 'text' as const, text: t })) },
  );
}

const idempotencyKeyArbitrary = fc.oneof(
  { weight: 10, arbitrary: fc.constant(null) },
  { weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z0-9_.:-]{8,40}$/) },
  // One key reused by many requests: repeats and IDEMPOTENCY_KEY_REUSED.
  { weight: 2, arbitrary: fc.constantFrom('fuzz-key-00000001', 'fuzz-key-00000002') },
  { weight: 2, arbitrary: fc.constantFrom('', 'short', 'k'.repeat(101), 'ключ-ключ-ключ', 'key with spaces', 'key\u0001key\u0001', 'a'.repeat(10_000)) },
);

const correlationArbitrary = fc.oneof(
  { weight: 10, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_.:-]{8,40}$/) },
  { weight: 2, arbitrary: fc.constantFrom('\u0001\u0002\u0003', 'id\u0000id', 'id\u007fid', 'id\tid', 'ä'.repeat(50), 'c'.repeat(10_000), '') },
  { weight: 1, arbitrary: headerValue },
);

const ODD_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'SEARCH', 'QUERY', 'FOO', 'get'];

// ---------------------------------------------------------------------------------------------
// Bodies

/** Bytes that are not valid UTF-8 (a lone surrogate in CESU-8 among them). */
const INVALID_UTF8 = [[0xff], [0xfe], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf], [0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80], [0xf4, 0x90, 0x80, 0x80]];

const RAW_TEXTS = [
  '', ' ', '\n', 'null', 'true', '0', '-0', '""', '[]', '{}', '{}{}', '{} x', '[1,]', '{"a":1,}', "{'a':1}", '{"a":1,"a":2}', 'NaN', 'undefined',
  '{"__proto__":{"isAdmin":true,"role":"ADMIN"}}', '{"constructor":{"prototype":{"role":"ADMIN"}}}', '{"a":"\\ud800"}', '{"a":"\\u0000"}',
  '{"a":"\\x00"}', '{"a":01}', '{"a":.5}', '{"a":+1}', '{"a":0x10}', '{"a":Infinity}', '\u0000', '{"a":1}\u0000', '{"a"', '{"', '[', '"',
  'a=1&b=2', '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--xyz--', '<?xml version="1.0"?><a/>',
];

function rawBodyArbitrary(routeBody: fc.Arbitrary<unknown>): fc.Arbitrary<FuzzBody> {
  const invalidUtf8 = fc.tuple(routeBody, fc.constantFrom(...INVALID_UTF8), fc.nat()).map(([value, bad, at]) => {
    const text = Buffer.from(jsonText(value), 'utf8');
    // Inside a string when there is one (after an opening quote), else anywhere.
    const quotes = [...text.keys()].filter((i) => text[i] === 0x22);
    const cut = quotes.length > 0 ? (quotes[at % quotes.length]! + 1) : at % (text.length + 1);
    return { kind: 'raw' as const, label: `invalid UTF-8 ${Buffer.from(bad).toString('hex')} at ${cut}`, bytes: Buffer.concat([text.subarray(0, cut), Buffer.from(bad), text.subarray(cut)]) };
  });
  const truncated = fc.tuple(routeBody, fc.nat()).map(([value, at]) => {
    const text = Buffer.from(jsonText(value), 'utf8');
    const cut = text.length <= 1 ? 0 : 1 + (at % (text.length - 1));
    return { kind: 'raw' as const, label: `truncated at ${cut} of ${text.length}`, bytes: text.subarray(0, cut) };
  });
  const wrapped = fc.tuple(routeBody, fc.constantFrom('\ufeff', ' \n\t', '\u00a0', '\u0000')).map(([value, prefix]) => ({
    kind: 'raw' as const, label: `prefixed ${JSON.stringify(prefix)}`, bytes: Buffer.from(prefix + jsonText(value), 'utf8'),
  }));
  const trailing = fc.tuple(routeBody, fc.constantFrom('x', '}', ']', ',', '{}', '\u0000', ' // comment')).map(([value, suffix]) => ({
    kind: 'raw' as const, label: `trailing ${JSON.stringify(suffix)}`, bytes: Buffer.from(jsonText(value) + suffix, 'utf8'),
  }));
  const texts = fc.constantFrom(...RAW_TEXTS).map((text) => ({ kind: 'raw' as const, label: 'text', bytes: Buffer.from(text, 'utf8') }));
  const deep = fc.tuple(fc.integer({ min: 64, max: 20_000 }), fc.constantFrom('array', 'object', 'mixed', 'proto')).map(([depth, shape]) => {
    const open = shape === 'array' ? '[' : shape === 'object' ? '{"a":' : shape === 'proto' ? '{"__proto__":' : '{"a":[';
    const close = shape === 'array' ? ']' : shape === 'mixed' ? ']}' : '}';
    return { kind: 'raw' as const, label: `nested ${depth} deep (${shape})`, bytes: Buffer.from(`${open.repeat(depth)}1${close.repeat(depth)}`) };
  });
  const random = fc.uint8Array({ maxLength: 2048 }).map((bytes) => ({ kind: 'raw' as const, label: 'random bytes', bytes: Buffer.from(bytes) }));
  // Over the APIs' 1 MiB limit (and the icon routes' 16 MiB is not reached): 413 at the gateway or the API.
  const oversized = fc.constantFrom(1024 * 1024 + 1, 2 * 1024 * 1024).map((size) => ({
    kind: 'raw' as const, label: `oversized ${size} bytes`, bytes: Buffer.from(JSON.stringify({ text: 'x'.repeat(size) })),
  }));
  return fc.oneof(
    { weight: 3, arbitrary: invalidUtf8 }, { weight: 3, arbitrary: truncated }, { weight: 1, arbitrary: wrapped }, { weight: 1, arbitrary: trailing },
    { weight: 2, arbitrary: texts }, { weight: 2, arbitrary: deep }, { weight: 1, arbitrary: random }, { weight: 1, arbitrary: oversized },
  );
}

function bodyArbitrary(route: CollectedRoute, mode: FuzzMode, known: KnownValues, fieldNames: readonly string[]): fc.Arbitrary<FuzzBody> {
  const schema = route.schema?.body as Schema | undefined;
  const valid = schema ? fromSchema(schema, known, fieldNames) : hostileJson(fieldNames);
  const near = fc.tuple(valid, mutationArbitrary(fieldNames)).map(([value, mutation]) => mutate(value, mutation));
  const json = (arbitrary: fc.Arbitrary<unknown>): fc.Arbitrary<FuzzBody> => arbitrary.map((value) => ({ kind: 'json' as const, value }));
  const none = fc.constant<FuzzBody>({ kind: 'none' });
  const takesBody = !['GET', 'HEAD'].includes(route.method);
  if (mode === 'guided') {
    return takesBody
      ? fc.oneof({ weight: 5, arbitrary: json(valid) }, { weight: 4, arbitrary: json(near) }, { weight: 1, arbitrary: none })
      : fc.oneof({ weight: 9, arbitrary: none }, { weight: 1, arbitrary: json(near) });
  }
  if (mode === 'hostile') {
    return fc.oneof(
      { weight: takesBody ? 1 : 6, arbitrary: none },
      { weight: 4, arbitrary: json(hostileJson(fieldNames)) },
      { weight: 4, arbitrary: json(near) },
      { weight: 1, arbitrary: json(longString) },
    );
  }
  return fc.oneof({ weight: 1, arbitrary: none }, { weight: 8, arbitrary: rawBodyArbitrary(fc.oneof(valid, near)) });
}

// ---------------------------------------------------------------------------------------------
// The case

function fillPath(route: CollectedRoute, mode: FuzzMode, known: KnownValues, fieldNames: readonly string[]): fc.Arbitrary<string> {
  const params = (route.schema?.params as Schema | undefined)?.properties ?? {};
  const parts = route.url.split('/').map((part): fc.Arbitrary<string> => {
    if (part.startsWith(':')) return segmentArbitrary(params[part.slice(1)], known, fieldNames, mode);
    if (part === '*') return wildcardArbitrary(known, fieldNames, mode);
    return fc.constant(part);
  });
  return fc.tuple(...parts).map((filled) => filled.join('/'));
}

/** The queue board's routes (Bull Board's UI and API, docs/decisions/0017): many, alike, and behind one cookie. */
function isBoardRoute(route: CollectedRoute): boolean {
  return route.url.startsWith(`${contracts.QUEUE_BOARD_PATH}/`);
}

/**
 * Arbitrary cases for `routes` (at least one) in the given family. Every route is drawn; the
 * queue board's ~60 routes (Bull Board's own) a third as often as each of the application's, so
 * that they do not take most of the runs.
 */
export function caseArbitrary(routes: readonly CollectedRoute[], mode: FuzzMode, known: KnownValues, fieldNames: readonly string[]): fc.Arbitrary<FuzzCase> {
  const contentType = fc.oneof(
    { weight: mode === 'guided' ? 20 : 6, arbitrary: fc.constant('application/json') },
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: mode === 'guided' ? 1 : 4, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  );
  const extra = fc.array(fc.tuple(fc.constantFrom(...EXTRA_HEADER_NAMES), headerValue), { maxLength: mode === 'guided' ? 1 : 3 });
  const route = fc.oneof(...routes.map((r) => ({ weight: isBoardRoute(r) ? 1 : 3, arbitrary: fc.constant(r) })));
  return route.chain((route) => {
    const method = mode === 'guided'
      ? fc.constant(route.method)
      : fc.oneof({ weight: mode === 'raw' ? 4 : 9, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS) });
    return fc.record({
      mode: fc.constant(mode),
      route: fc.constant(route),
      method,
      path: fillPath(route, mode, known, fieldNames),
      query: queryArbitrary(route.schema?.querystring as Schema | undefined, known, fieldNames, mode),
      auth: authArbitrary(mode),
      cookie: cookieArbitrary(mode, isBoardRoute(route)),
      contentType,
      idempotencyKey: mode === 'guided' ? fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: idempotencyKeyArbitrary }) : idempotencyKeyArbitrary,
      minPosition: minPositionArbitrary(mode),
      correlationId: correlationArbitrary,
      extraHeaders: extra,
      body: bodyArbitrary(route, mode, known, fieldNames),
      chunked: mode === 'raw' ? fc.boolean() : fc.constant(false),
    });
  }).map((c) => Object.defineProperty(c, fc.toStringMethod, { value: () => describeCase(c), enumerable: false }));
}

/** The case's request as bytes to send, with its symbolic parts resolved. */
export function toRawRequest(c: FuzzCase, resolved: Resolved): RawRequest {
  const headers: [string, string][] = [];
  const auth = (() => {
    switch (c.auth.kind) {
      case 'none': return null;
      case 'member': return `Bearer ${resolved.member}`;
      case 'admin': return `Bearer ${resolved.admin}`;
      case 'expired': return `Bearer ${resolved.expired}`;
      case 'foreign-secret': return `Bearer ${resolved.foreignSecret}`;
      case 'alg-none': return `Bearer ${resolved.algNone}`;
      case 'unknown-session': return `Bearer ${resolved.unknownSession}`;
      case 'forged-role': return `Bearer ${resolved.forgedRole}`;
      case 'lowercase': return `bearer ${resolved.member}`;
      case 'padded': return `Bearer   ${resolved.admin}  `;
      case 'truncated': return `Bearer ${resolved.admin.slice(0, -3)}`;
      case 'empty-bearer': return 'Bearer ';
      case 'basic': return `Basic ${Buffer.from('admin@example.ee:admin').toString('base64')}`;
      case 'board-token': return `Bearer ${resolved.boardToken}`;
      case 'text': return c.auth.text;
    }
  })();
  if (auth !== null) headers.push(['Authorization', auth]);
  const cookie = (() => {
    switch (c.cookie.kind) {
      case 'none': return null;
      case 'refresh': return `${contracts.REFRESH_COOKIE}=${resolved.refreshCookie}`;
      case 'board': return `${contracts.QUEUE_BOARD_COOKIE}=${resolved.boardCookie}`;
      case 'both': return `${contracts.REFRESH_COOKIE}=${resolved.refreshCookie}; ${contracts.QUEUE_BOARD_COOKIE}=${resolved.boardCookie}`;
      case 'refresh-garbage': return `${contracts.REFRESH_COOKIE}=${c.cookie.text}`;
      case 'board-garbage': return `${contracts.QUEUE_BOARD_COOKIE}=${c.cookie.text}`;
      case 'text': return c.cookie.text;
    }
  })();
  if (cookie !== null) headers.push(['Cookie', cookie]);
  if (c.contentType !== null && c.body.kind !== 'none') headers.push(['Content-Type', c.contentType]);
  else if (c.contentType !== null && c.contentType !== 'application/json') headers.push(['Content-Type', c.contentType]);
  if (c.idempotencyKey !== null) headers.push(['Idempotency-Key', c.idempotencyKey]);
  const minPosition = (() => {
    switch (c.minPosition.kind) {
      case 'none': return null;
      case 'zero': return '0';
      case 'head': return String(resolved.head);
      case 'past': return String(Math.max(1, resolved.head - 5));
      case 'future': return String(resolved.head + 1_000_000);
      case 'text': return c.minPosition.text;
    }
  })();
  if (minPosition !== null) headers.push([contracts.MIN_POSITION_HEADER, minPosition]);
  if (c.correlationId !== null) headers.push(['X-Correlation-Id', c.correlationId.replace(/[\r\n]/g, ' ')]);
  headers.push(...c.extraHeaders);
  const body = c.body.kind === 'none' ? undefined : c.body.kind === 'json' ? Buffer.from(jsonText(c.body.value), 'utf8') : c.body.bytes;
  return {
    method: c.method,
    target: c.query === null ? c.path : `${c.path}?${c.query}`,
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(c.chunked ? { chunked: true } : {}),
  };
}

/** At most `max` characters of `text`, escaped, with its full length when cut. */
function preview(text: string, max = 300): string {
  const shown = JSON.stringify(text.length > max ? text.slice(0, max) : text);
  return text.length > max ? `${shown}… (${text.length} characters)` : shown;
}

/** A short, printable account of a case (fast-check prints it as the counterexample). */
export function describeCase(c: FuzzCase): string {
  const body = c.body.kind === 'none' ? 'none' : c.body.kind === 'json' ? `json ${preview(jsonText(c.body.value), 200)}` : `raw ${c.body.label} ${c.body.bytes.length} bytes`;
  return `[${c.mode}] ${c.route.api} route ${c.route.method} ${c.route.url}: ${c.method} ${preview(c.query === null ? c.path : `${c.path}?${c.query}`, 200)}`
    + ` auth=${c.auth.kind}${c.auth.kind === 'text' ? `:${preview(c.auth.text, 60)}` : ''} cookie=${c.cookie.kind} content-type=${c.contentType === null ? '-' : preview(c.contentType, 60)}`
    + ` idempotency-key=${c.idempotencyKey === null ? '-' : preview(c.idempotencyKey, 40)} x-min-position=${c.minPosition.kind}${c.minPosition.text ? `:${preview(c.minPosition.text)}` : ''}`
    + ` x-correlation-id=${c.correlationId === null ? '-' : preview(c.correlationId, 40)} extra=${preview(JSON.stringify(c.extraHeaders), 200)} body=${body}${c.chunked ? ' (chunked)' : ''}`;
}

/** The request as sent (method, target, headers, body), for a failure report. */
export function describeRequest(request: RawRequest): string {
  const lines = [`${request.method} ${preview(request.target, 500)}`];
  for (const [name, value] of request.headers) lines.push(`  ${name}: ${preview(value, 200)}`);
  if (request.body !== undefined) {
    const text = request.body.toString('utf8');
    lines.push(`  body (${request.body.length} bytes${request.chunked ? ', chunked' : ''}): ${preview(text, 500)}`);
  }
  return lines.join('\n');
}

const CATALOGUE = new Set<string>(ERROR_CODES);

/**
 * What is wrong with an answer: a short kind (to group by) and the details. `fatal` for a 5xx, a
 * hang or no answer at all; else an error answer without a catalogue code.
 */
export interface AnswerProblem {
  fatal: boolean;
  kind: string;
  detail: string;
}

/**
 * What is wrong with an answer, or null: no answer within the limit, a broken connection, a 5xx,
 * or an error answer (4xx) without `{ message: <catalogue code> }` (HEAD answers carry no body;
 * with `pages`, a route that serves HTML pages to a browser may refuse with a page; with
 * `ownErrorShape`, a third-party UI's API may refuse in the shape its UI reads — 5xx and hangs
 * stay fatal there too).
 */
export function problemWith(request: RawRequest, response: RawResponse, limitMs: number, options: { pages?: boolean; ownErrorShape?: boolean } = {}): AnswerProblem | null {
  const body = response.body.toString('utf8');
  if (response.timedOut) return { fatal: true, kind: 'hang', detail: `no complete answer within ${limitMs} ms (status so far: ${response.status || 'none'})` };
  if (response.broken) return { fatal: true, kind: 'broken connection', detail: `the connection broke without an answer: ${response.broken}` };
  if (response.status === 0) return { fatal: true, kind: 'no HTTP answer', detail: `no HTTP answer: ${preview(response.body.toString('latin1'))}` };
  if (response.ms > limitMs) return { fatal: true, kind: 'slow', detail: `answered after ${Math.round(response.ms)} ms (limit ${limitMs} ms)` };
  if (response.status >= 500) return { fatal: true, kind: `${response.status} ${preview(body, 80)}`, detail: `answered ${response.status}: ${preview(body)}` };
  // A route that serves pages to a browser (the payment sandbox's test bank) refuses with a page.
  const page = options.pages === true && (response.headers['content-type'] ?? '').startsWith('text/html');
  if (response.status >= 400 && request.method !== 'HEAD' && !page && options.ownErrorShape !== true) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return { fatal: false, kind: `${response.status} not JSON ${preview(body, 80)}`, detail: `error answer ${response.status} is not JSON: ${preview(body)}` };
    }
    const message = (parsed as { message?: unknown } | null)?.message;
    if (typeof message !== 'string' || !CATALOGUE.has(message)) {
      // Grouped by what names the error (Fastify's code, a plugin's key, the message), not by the URL it may quote.
      const named = parsed as { code?: unknown; error?: { key?: unknown } | unknown; message?: unknown } | null;
      const name = [named?.code, (named?.error as { key?: unknown } | undefined)?.key, message].find((v) => typeof v === 'string') ?? preview(body, 60);
      return { fatal: false, kind: `${response.status} ${String(name).slice(0, 80)}`, detail: `error answer ${response.status} without { message: <catalogue code> }: ${preview(body)}` };
    }
  }
  return null;
}
