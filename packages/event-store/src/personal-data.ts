/**
 * Crypto-shredding of personal data (GDPR erasure in an append-only log).
 *
 * Every *subject* (a person, e.g. `participant-12`) has its own random AES-256 key in
 * `es.subject_keys`. Personal fields of events are stored encrypted with it; `forget(subject)`
 * deletes the key (the row stays, with `erased_at`), after which every stored copy of that
 * person's fields is unreadable: reads give null in their place. The events themselves, and
 * their non-personal fields (ids, distances, times), stay intact for projections and replays.
 *
 * A protected value is the string `pii:v1:<subject>:<iv>:<ciphertext>:<tag>` (subject
 * URI-encoded, the rest base64): AES-256-GCM, a random 96-bit IV per value, the plaintext is the
 * value's JSON, and the `pii:v1:<subject>` prefix is authenticated as additional data (a value
 * cannot be moved to another subject). Values written for an already erased subject are stored
 * as `pii:v1:<subject>:erased`: nothing personal of a forgotten person is stored again.
 *
 * Limits: the keys live in the same database as the events, so a backup taken before `forget`
 * still holds the key (shorten backup retention accordingly); the deleted key's old row version
 * stays on disk until PostgreSQL vacuums the table.
 */
import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import type pg from 'pg';
import type { AppendRequest, EventData, EventStore, ReadAllOptions, ReadStreamOptions, ReadStreamsOptions, RecordedEvent } from './types';

/**
 * The NOTIFY channel of erasures: `forget` sends the subject on it when the key's
 * deletion commits; every process's SubjectErasureListener drops its cached key.
 */
export const SUBJECT_ERASED_CHANNEL = 'sinilill_subject_erased';

/** The payload that stands for every subject (drop every cached live key). */
export const EVERY_SUBJECT = '*';

/** Longest subject sent as itself (PostgreSQL's payload limit is 8000 bytes); longer ones send EVERY_SUBJECT. */
const MAX_NOTIFIED_SUBJECT_BYTES = 1000;

/** A JSON value (what an event's data field can hold). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

const PREFIX = 'pii:v1:';
const IV_BYTES = 12;
const KEY_BYTES = 32;

/** A parsed protected value. */
export interface SealedValue {
  subject: string;
  /** null for the `erased` marker. */
  parts: { iv: Buffer; ciphertext: Buffer; tag: Buffer } | null;
}

/** True when `value` is a protected-value string (`pii:v1:…`). */
export function isSealedValue(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(PREFIX);
}

/**
 * Encrypts `value` (JSON-serialisable) for `subject` with a 32-byte AES key.
 * @returns `pii:v1:<subject>:<iv>:<ciphertext>:<tag>`
 */
export function sealValue(key: Buffer | KeyObject, subject: string, value: JsonValue): string {
  const header = PREFIX + encodeURIComponent(subject);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(header, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return `${header}:${iv.toString('base64')}:${ciphertext.toString('base64')}:${cipher.getAuthTag().toString('base64')}`;
}

/** The marker stored instead of a value written for an already erased subject. */
export function erasedValue(subject: string): string {
  return `${PREFIX}${encodeURIComponent(subject)}:erased`;
}

/** Parses a protected value; throws Error when it is malformed. */
export function parseSealedValue(sealed: string): SealedValue {
  if (!sealed.startsWith(PREFIX)) throw new Error('not a protected value');
  const fields = sealed.slice(PREFIX.length).split(':');
  const subject = decodeURIComponent(fields[0] ?? '');
  if (fields.length === 2 && fields[1] === 'erased') return { subject, parts: null };
  const [, iv, ciphertext, tag] = fields;
  if (fields.length !== 4 || iv === undefined || ciphertext === undefined || tag === undefined) {
    throw new Error(`malformed protected value for subject ${subject}`);
  }
  return {
    subject,
    parts: { iv: Buffer.from(iv, 'base64'), ciphertext: Buffer.from(ciphertext, 'base64'), tag: Buffer.from(tag, 'base64') },
  };
}

/**
 * Decrypts a protected value with its subject's key; null for the erased marker.
 * @throws Error when the value was tampered with or the key is not the subject's.
 */
export function openValue(key: Buffer | KeyObject, sealed: string): JsonValue | null {
  const { subject, parts } = parseSealedValue(sealed);
  if (!parts) return null;
  const decipher = createDecipheriv('aes-256-gcm', key, parts.iv);
  decipher.setAAD(Buffer.from(PREFIX + encodeURIComponent(subject), 'utf8'));
  decipher.setAuthTag(parts.tag);
  const plaintext = Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]).toString('utf8');
  return JSON.parse(plaintext) as JsonValue;
}

/** Options of PersonalDataVault. */
export interface PersonalDataVaultOptions {
  /** The pool of the event store's database (owned by the caller; never ended here). */
  pool: pg.Pool;
  /**
   * How long a live key stays cached, in ms (default 60 000). Without a SubjectErasureListener
   * this bounds how long another process can still decrypt after `forget` ran elsewhere; with
   * one the other processes drop the key within milliseconds, and the TTL is
   * only the safety net. This process drops the key at once either way.
   */
  cacheTtlMs?: number;
  /** Clock in ms (tests). */
  now?: () => number;
}

interface CachedKey {
  /**
   * null = erased (permanent, cached forever). A KeyObject, imported once: a raw key Buffer is
   * imported again by every createDecipheriv (13 µs against 3 µs a value, a replay
   * opens about 100 000 values).
   */
  key: KeyObject | null;
  expiresAt: number;
}

/**
 * Per-subject AES-256-GCM keys in `es.subject_keys`, cached in memory.
 * Subjects are free-form non-empty strings; withPersonalDataProtection uses `<kind>-<id>`.
 *
 * Several processes (API, projector) each hold a vault over one database. `forget` announces the
 * erasure on SUBJECT_ERASED_CHANNEL when it commits; a SubjectErasureListener in each process
 * (./subject-erasures.ts) then calls `invalidate(subject)`, so no process decrypts or encrypts
 * with an erased key for longer than a notification takes (milliseconds), not the cache's TTL.
 */
export class PersonalDataVault {
  private readonly pool: pg.Pool;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly cache = new Map<string, CachedKey>();
  /**
   * Moves on every invalidation. A key load that began before one must not cache what it read:
   * it may have read a key that an erasure heard meanwhile has deleted.
   */
  private epoch = 0;
  /** False while an attached SubjectErasureListener is not listening: live keys are not cached. */
  private coherent = true;

  constructor(options: PersonalDataVaultOptions) {
    this.pool = options.pool;
    this.ttlMs = options.cacheTtlMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * Encrypts `value` for `subject`, creating the subject's key on first use.
   * @returns a `pii:v1:…` string; the erased marker when the subject was forgotten.
   */
  async encrypt(subject: string, value: JsonValue): Promise<string> {
    const [sealed] = await this.encryptMany([{ subject, value }]);
    return sealed!;
  }

  /**
   * Encrypts several values, creating missing keys with at most three queries in all.
   * @returns the sealed strings in input order.
   */
  async encryptMany(items: readonly { subject: string; value: JsonValue }[]): Promise<string[]> {
    const keys = await this.ensureKeys(items.map((item) => item.subject));
    return items.map(({ subject, value }) => {
      const key = keys.get(subject);
      return key ? sealValue(key, subject, value) : erasedValue(subject);
    });
  }

  /** Decrypts one `pii:v1:…` value; null when its subject was forgotten or has no key. */
  async decrypt(sealed: string): Promise<JsonValue | null> {
    const [value] = await this.decryptMany([sealed]);
    return value ?? null;
  }

  /**
   * Decrypts many values, loading all uncached keys in one query.
   * @returns plaintext values in input order; null where the subject is erased or has no key.
   * @throws Error for a malformed or tampered value.
   */
  async decryptMany(sealed: readonly string[]): Promise<(JsonValue | null)[]> {
    const parsed = sealed.map((value) => parseSealedValue(value).subject);
    const keys = await this.loadKeys(parsed);
    return sealed.map((value, index) => {
      const key = keys.get(parsed[index]!);
      return key ? openValue(key, value) : null;
    });
  }

  /**
   * Erases `subject`: deletes its key (keeping a row with erased_at) and drops it from this
   * process's cache. Idempotent; also marks a subject that never had a key, so that nothing
   * personal is stored for it later.
   */
  async forget(subject: string): Promise<void> {
    // One statement, so one transaction: the NOTIFY (SUBJECT_ERASED_CHANNEL) is delivered to the
    // other processes' listeners only when the key's deletion commits. A
    // subject too long for a notification's payload (8000 bytes) is announced as '*': drop all.
    await this.pool.query(
      `WITH erased AS (
         INSERT INTO es.subject_keys AS k (subject, key, erased_at) VALUES ($1, NULL, now())
         ON CONFLICT (subject) DO UPDATE SET key = NULL, erased_at = coalesce(k.erased_at, now())
         RETURNING subject)
       SELECT pg_notify($2, CASE WHEN octet_length(subject) <= $3 THEN subject ELSE $4 END) FROM erased`,
      [subject, SUBJECT_ERASED_CHANNEL, MAX_NOTIFIED_SUBJECT_BYTES, EVERY_SUBJECT],
    );
    this.cache.set(subject, { key: null, expiresAt: Number.POSITIVE_INFINITY });
  }

  /**
   * Drops the cached live key of `subject`, or of every subject (EVERY_SUBJECT or no argument),
   * because it may have been erased by another process (SubjectErasureListener). Erased subjects
   * stay cached (an erasure is permanent). A key load in flight does not cache what it read.
   */
  invalidate(subject: string = EVERY_SUBJECT): void {
    this.epoch += 1;
    if (subject !== EVERY_SUBJECT) {
      if (this.cache.get(subject)?.key) this.cache.delete(subject);
      return;
    }
    for (const [name, cached] of this.cache) if (cached.key) this.cache.delete(name);
  }

  /**
   * Whether erasures elsewhere reach this vault (set by SubjectErasureListener): while false,
   * live keys are neither served from the cache nor cached (every read asks the database), so a
   * lost LISTEN connection cannot leave a stale key in use. Turning it on or off drops every
   * cached live key. Default true (a vault without a listener relies on its TTL alone).
   */
  setCoherent(coherent: boolean): void {
    this.coherent = coherent;
    this.invalidate();
  }

  /** Keys of `subjects` (cached or loaded in one query); absent from the map = erased or missing. */
  private async loadKeys(subjects: readonly string[]): Promise<Map<string, KeyObject>> {
    const found = new Map<string, KeyObject>();
    const missing = this.fromCache(subjects, found);
    if (missing.length > 0) {
      const epoch = this.epoch;
      const { rows } = await this.pool.query<{ subject: string; key: Buffer | null }>(
        'SELECT subject, key FROM es.subject_keys WHERE subject = ANY($1::text[])',
        [missing],
      );
      this.remember(rows, found, epoch);
    }
    return found;
  }

  /** Like loadKeys, but creates keys for subjects that never had one. */
  private async ensureKeys(subjects: readonly string[]): Promise<Map<string, KeyObject>> {
    const found = new Map<string, KeyObject>();
    let missing = this.fromCache(subjects, found);
    if (missing.length === 0) return found;
    const known = new Set<string>();
    const load = async (wanted: string[]) => {
      const epoch = this.epoch;
      const { rows } = await this.pool.query<{ subject: string; key: Buffer | null }>(
        'SELECT subject, key FROM es.subject_keys WHERE subject = ANY($1::text[])',
        [wanted],
      );
      for (const row of rows) known.add(row.subject);
      this.remember(rows, found, epoch);
    };
    await load(missing);
    missing = missing.filter((subject) => !known.has(subject));
    if (missing.length > 0) {
      // A concurrent creator wins the race (DO NOTHING); the reload then picks its key up.
      await this.pool.query(
        'INSERT INTO es.subject_keys (subject, key) SELECT * FROM unnest($1::text[], $2::bytea[]) ON CONFLICT (subject) DO NOTHING',
        [missing, missing.map(() => randomBytes(KEY_BYTES))],
      );
      await load(missing);
    }
    return found;
  }

  /** Fills `found` from the cache; returns the distinct subjects that need a query. */
  private fromCache(subjects: readonly string[], found: Map<string, KeyObject>): string[] {
    const now = this.now();
    const missing = new Set<string>();
    for (const subject of subjects) {
      if (found.has(subject) || missing.has(subject)) continue;
      const cached = this.cache.get(subject);
      if (cached && cached.expiresAt > now && (cached.key === null || this.coherent)) {
        if (cached.key) found.set(subject, cached.key);
      } else {
        if (cached) this.cache.delete(subject);
        missing.add(subject);
      }
    }
    return [...missing];
  }

  /**
   * Hands the loaded keys to the caller (`found`) and caches them: erased ones always, live ones
   * only while coherent and when no invalidation came since the load began (`epoch`).
   */
  private remember(rows: readonly { subject: string; key: Buffer | null }[], found: Map<string, KeyObject>, epoch: number): void {
    const expiresAt = this.now() + this.ttlMs;
    const cacheLive = this.coherent && epoch === this.epoch && this.ttlMs > 0;
    for (const { subject, key: raw } of rows) {
      const key = raw ? createSecretKey(raw) : null;
      if (!key) this.cache.set(subject, { key: null, expiresAt: Number.POSITIVE_INFINITY });
      else if (cacheLive) this.cache.set(subject, { key, expiresAt });
      if (key) found.set(subject, key);
    }
  }
}

/** Which fields of one event type are personal, and whose they are. */
export interface PersonalFields {
  /** Name of the data field holding the subject's id (e.g. 'participantId'); never encrypted. */
  subject: string;
  /** Top-level data fields to encrypt (null/undefined values are left as they are). */
  fields: readonly string[];
  /** Kind part of the subject key; default: `subject` without a trailing 'Id', in kebab-case. */
  subjectPrefix?: string;
}

/** Map from event type to its personal fields; types not listed pass through untouched. */
export type PersonalDataPolicy = Partial<Record<string, PersonalFields>>;

/**
 * The subject key of an event's data: `<prefix>-<String(data[subjectField])>`, the prefix being
 * `subjectPrefix` or the subject field's name without a trailing 'Id', in kebab-case
 * ('participantId' 12 → 'participant-12', 'teamCaptainId' 'u7' → 'team-captain-u7').
 * @throws TypeError when the subject field is missing, null or an empty string.
 */
export function subjectOf(data: Record<string, unknown>, spec: PersonalFields): string {
  const id = data[spec.subject];
  if (id === undefined || id === null || id === '') {
    throw new TypeError(`personal data: field ${spec.subject} (the subject) is missing`);
  }
  const prefix = spec.subjectPrefix ?? spec.subject.replace(/Id$/, '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return `${prefix}-${String(id)}`;
}

/**
 * Decorates `store` so that the personal fields listed in `policy` are encrypted on append and
 * decrypted on every read (readStream, readStreams, readAll, readEvents, findEvent). Fields of forgotten subjects read as
 * null. Reads load all keys a batch needs in one query. Idempotent appends stay idempotent: the
 * store compares event ids only, so a repeat with different ciphertexts is still a repeat.
 * Values that are not `pii:v1:` strings (events written before the policy) are returned as stored.
 * @throws TypeError at construction when a policy encrypts its own subject field; on append when
 *   a protected event's data is not an object or lacks its subject field.
 */
export function withPersonalDataProtection(store: EventStore, vault: PersonalDataVault, policy: PersonalDataPolicy): EventStore {
  for (const [type, spec] of Object.entries(policy)) {
    if (spec?.fields.includes(spec.subject)) {
      throw new TypeError(`personal data: ${type} would encrypt its subject field ${spec.subject}`);
    }
  }

  async function protect(requests: AppendRequest[]): Promise<AppendRequest[]> {
    const jobs: { subject: string; value: JsonValue; data: Record<string, unknown>; field: string }[] = [];
    const out = requests.map((request) => ({
      ...request,
      events: request.events.map((event): EventData => {
        const spec = policy[event.type];
        if (!spec) return event;
        if (typeof event.data !== 'object' || event.data === null || Array.isArray(event.data)) {
          throw new TypeError(`personal data: ${event.type} ${event.id} has no data object`);
        }
        const data = { ...(event.data as Record<string, unknown>) };
        const subject = subjectOf(data, spec);
        for (const field of spec.fields) {
          const value = data[field];
          if (value !== undefined && value !== null) jobs.push({ subject, value: value as JsonValue, data, field });
        }
        return { ...event, data };
      }),
    }));
    const sealed = await vault.encryptMany(jobs);
    jobs.forEach((job, index) => {
      job.data[job.field] = sealed[index];
    });
    return out;
  }

  const reveal = (events: RecordedEvent[]) => revealWith(vault, policy, events);

  const protectedStore: EventStore = {
    async appendToStream(stream, events, options) {
      const [request] = await protect([{ stream, events, expectedRevision: options.expectedRevision }]);
      return store.appendToStream(stream, request!.events, options);
    },
    async appendToStreams(requests) {
      return store.appendToStreams(await protect(requests));
    },
    async readStream(stream: string, options?: ReadStreamOptions) {
      return reveal(await store.readStream(stream, options));
    },
    ...(store.readStreams ? {
      async readStreams(requests: readonly { stream: string; fromRevision?: number }[], options?: ReadStreamsOptions) {
        const read = await store.readStreams!(requests, options);
        // One reveal (one key query) for every event read.
        const revealed = await reveal([...read.streams.flat(), ...(read.found ?? []).flat(), ...(read.event ? [read.event] : [])]);
        let offset = 0;
        const streams = read.streams.map((events) => revealed.slice(offset, (offset += events.length)));
        const found = read.found?.map((events) => revealed.slice(offset, (offset += events.length)));
        return { streams, event: read.event ? revealed[offset]! : null, ...(found ? { found } : {}) };
      },
    } : {}),
    async appendToStreamsIf(requests, condition) {
      return store.appendToStreamsIf(await protect(requests), condition);
    },
    async readAll(options: ReadAllOptions) {
      return reveal(await store.readAll(options));
    },
    async readEvents(selector, options) {
      return reveal(await store.readEvents(selector, options));
    },
    countEvents: (selector) => store.countEvents(selector),
    headPosition: () => store.headPosition(),
    async findEvent(eventId) {
      const event = await store.findEvent(eventId);
      return event ? ((await reveal([event]))[0] ?? null) : null;
    },
    close: () => store.close(),
  };
  revealers.set(protectedStore, reveal);
  return protectedStore;
}

/**
 * The decryption of each store built by withPersonalDataProtection. A WeakMap rather than a
 * method on the store: the EventStore interface stays the KurrentDB-shaped one, and a store
 * nobody references any more is not kept alive by this registry.
 */
const revealers = new WeakMap<EventStore, (events: RecordedEvent[]) => Promise<RecordedEvent[]>>();

/**
 * Decrypts the personal fields of events read from the log by other means than `store`'s own
 * reads (e.g. a filtered SQL query over es.events), exactly as `store.readAll` would: fields of
 * an erased subject read null. Events of types without personal data come back unchanged.
 *
 * @param store a store returned by withPersonalDataProtection (its vault and policy are used).
 * @returns new event objects in input order (the inputs are not mutated).
 * @throws TypeError when `store` is not protected: handing sealed values on silently would
 *   look like data, and handing them on as plaintext is impossible.
 */
export function revealPersonalData(store: EventStore, events: RecordedEvent[]): Promise<RecordedEvent[]> {
  const reveal = revealers.get(store);
  if (!reveal) throw new TypeError('revealPersonalData: the store was not built by withPersonalDataProtection');
  return reveal(events);
}

/** Decrypts the policy's fields of `events` with one vault round trip for all of them. */
async function revealWith(vault: PersonalDataVault, policy: PersonalDataPolicy, events: RecordedEvent[]): Promise<RecordedEvent[]> {
  const slots: { data: Record<string, unknown>; field: string; sealed: string }[] = [];
  const out = events.map((event) => {
    const spec = policy[event.type];
    if (!spec || typeof event.data !== 'object' || event.data === null) return event;
    const data = { ...(event.data as Record<string, unknown>) };
    for (const field of spec.fields) {
      const sealed = data[field];
      if (isSealedValue(sealed)) slots.push({ data, field, sealed });
    }
    return { ...event, data };
  });
  if (slots.length === 0) return events;
  const plain = await vault.decryptMany(slots.map((slot) => slot.sealed));
  slots.forEach((slot, index) => {
    slot.data[slot.field] = plain[index] ?? null;
  });
  return out;
}
