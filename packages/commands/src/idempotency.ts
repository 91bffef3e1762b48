/**
 * The pieces of command idempotency that need no event store (docs/decisions/0007):
 *
 * - the *request fingerprint*: what a client's `Idempotency-Key` promises to mean. A repeated key
 *   is a repeat only when it comes with the same fingerprint (same route, same body, same path);
 *   any other use of the key is refused with IDEMPOTENCY_KEY_REUSED (422).
 * - a keyed mutex: requests with one command id run one after the other in a process, so a retry
 *   that arrives while the first request still runs waits for it and then finds its events.
 *
 * The store side (finding the first event, comparing fingerprints, the repeat's position) is in
 * handle.ts; CommandService.idempotent puts the two together.
 */
import { createHash, createHmac } from 'node:crypto';

/**
 * JSON with object keys sorted (by UTF-16 code units, recursively) and without whitespace, so
 * that two requests that mean the same give the same text whatever their key order.
 * Follows JSON.stringify otherwise: properties whose value is undefined (or a function) are
 * left out, in arrays they become null; non-finite numbers become null; `toJSON` is honoured.
 * @throws TypeError for a bigint or a cycle (a validated request body has neither).
 */
export function canonicalJson(value: unknown): string {
  return canonical(value, new Set()) ?? 'null';
}

function canonical(value: unknown, ancestors: Set<object>): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return canonical((value as { toJSON(): unknown }).toJSON(), ancestors);
  }
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') {
    return JSON.stringify(value);
  }
  if (typeof value === 'bigint') throw new TypeError('canonicalJson: a bigint has no JSON form');
  if (typeof value !== 'object') return undefined; // undefined, functions, symbols: left out as in JSON
  if (ancestors.has(value)) throw new TypeError('canonicalJson: the value contains a cycle');
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return `[${value.map((item) => canonical(item, ancestors) ?? 'null').join(',')}]`;
    const members: string[] = [];
    for (const key of Object.keys(value).sort()) {
      const member = canonical((value as Record<string, unknown>)[key], ancestors);
      if (member !== undefined) members.push(`${JSON.stringify(key)}:${member}`);
    }
    return `{${members.join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}

/**
 * The fingerprint of a request: lowercase hex HMAC-SHA256 under `key` (SHA-256 without one) of
 * `<route>\n<canonicalJson(input)>`. `route` is the method and the route pattern (`POST
 * /api/entry`, `PUT /api/entry/:id/edit`); `input` what the request asks, as validated (the
 * command API passes `{ params, body }`). Stored in the metadata of the command's events as
 * `requestFingerprint` (docs/decisions/0007).
 *
 * The command API passes a key of its own (fingerprintKey): a body may hold a secret (PUT
 * /account/changepassword holds two passwords), and a plain hash in the log could be guessed
 * offline by hashing candidate passwords with the rest of the body; keyed, it cannot be without
 * the server's secret (the web client sends a key with every command).
 */
export function requestFingerprint(route: string, input: unknown, key?: Buffer | string): string {
  const text = `${route}\n${canonicalJson(input)}`;
  return (key === undefined ? createHash('sha256') : createHmac('sha256', key)).update(text).digest('hex');
}

/** The key of request fingerprints derived from a server secret (the JWT secret): never the secret itself. */
export function fingerprintKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('sinilill:request-fingerprint:v1').digest();
}

/** The request fingerprint an event's metadata carries (undefined: none, e.g. imported or older events). */
export function fingerprintOf(metadata: object): string | undefined {
  const value = (metadata as { requestFingerprint?: unknown }).requestFingerprint;
  return typeof value === 'string' ? value : undefined;
}

/**
 * Runs tasks with the same key one after another, in arrival order; tasks with different keys
 * run freely. In-process only: a second process's request is caught by the event store instead
 * (unique event ids, see handle.ts). A task's failure releases the key like its success.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `task` once every earlier task with `key` has settled; answers what it answers. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = before.then(() => mine);
    this.tails.set(key, tail);
    await before;
    try {
      return await task();
    } finally {
      release();
      // The last in line removes the key, so the map holds only keys in use.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** How many keys have a task running or waiting (for tests and metrics). */
  get size(): number {
    return this.tails.size;
  }
}
