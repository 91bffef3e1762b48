/**
 * Parking: one event that a projection cannot apply must not stall it. When a batch
 * fails because of its data, the runner (runner.ts) splits it to find the event that fails,
 * applies the events around it, records it in `parked_events` with its error and moves the
 * checkpoint past it — all in the batch's one transaction, so nothing is applied twice and
 * nothing is passed over without a record.
 *
 * Only deterministic failures park an event: a PostgreSQL data exception (SQLSTATE class 22, e.g.
 * 22021 "invalid byte sequence for encoding UTF8: 0x00") or integrity violation (class 23), and an
 * error thrown by a projection's pure fold (FoldError). Anything else — a lost connection, a
 * serialization failure or deadlock (class 40), a bug in a projection's SQL (class 42), an
 * unexpected JavaScript error outside the fold — fails the batch, and the projector
 * retries it: such an error would fail every event alike, and parking them all would empty the
 * read model instead of waiting for the cause to go away.
 */
import type { RecordedEvent } from '@sinilill/event-store';

/** `error_code` of a park whose error came from a projection's pure fold (not from PostgreSQL). */
export const FOLD_ERROR_CODE = 'FOLD';

/** An error thrown by a projection's pure fold (evolve): the event's data cannot be folded, every time. */
export class FoldError extends Error {
  override readonly name = 'FoldError';
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/**
 * Runs a projection's pure fold, turning anything it throws into a FoldError, so that the
 * runner can tell a data error of the fold from an infrastructure failure around it.
 * @throws FoldError wrapping what `fold` threw.
 */
export function fold<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw new FoldError(error);
  }
}

const SQLSTATE = /^[0-9A-Z]{5}$/;

/** The SQLSTATE of a PostgreSQL error (pg's DatabaseError.code), or null for any other error. */
function sqlState(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && SQLSTATE.test(code) && typeof severity === 'string' ? code : null;
}

/**
 * True when `error` will happen again whenever the same event is applied to the same rows: a
 * FoldError, or a PostgreSQL error of SQLSTATE class 22 (data exception) or 23 (integrity
 * constraint violation). Those park the event; every other error fails the batch (module docs).
 */
export function isDeterministicFailure(error: unknown): boolean {
  if (error instanceof FoldError) return true;
  const state = sqlState(error);
  return state !== null && (state.startsWith('22') || state.startsWith('23'));
}

/** Longest error message kept with a park, characters. */
const MESSAGE_MAX = 300;
/** Characters no read-model text may hold (so that recording the park cannot fail the same way). */
const UNSAFE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uD800-\uDFFF]/gu;

/**
 * What a park records of an error: its code (SQLSTATE, or FOLD_ERROR_CODE) and its message with
 * the values a message may quote cut out (PostgreSQL ends messages such as "invalid input syntax
 * for type integer" with `: "<value>"`, which may be personal data), control characters replaced
 * and at most 300 characters. Names of encodings, columns and constraints stay.
 */
export function describeFailure(error: unknown): { code: string; message: string } {
  const code = error instanceof FoldError ? FOLD_ERROR_CODE : sqlState(error) ?? 'ERROR';
  const raw = error instanceof Error ? error.message : String(error);
  const message = raw
    .replace(/: "(?:[^"\\]|\\.)*"/g, ': "…"')
    .replace(UNSAFE, '\uFFFD')
    .slice(0, MESSAGE_MAX);
  return { code, message };
}

/** The steps applyOrPark takes, bound to a transaction by the runner. */
export interface ParkingSteps<E> {
  /**
   * Applies `events` (in order) all or nothing, e.g. inside a savepoint that is rolled back when
   * it throws; throws what applying threw.
   */
  attempt(events: readonly E[]): Promise<void>;
  /** Records `event` as parked with `error`. */
  park(event: E, error: unknown): Promise<void>;
}

/**
 * Applies `events` in order, parking each one that cannot be applied: tries the whole list;
 * when that fails deterministically (isDeterministic), splits it in halves and tries each in turn
 * (bisection), down to single events, which are parked. So the events before a failing one are
 * applied before it is parked, and the ones after it after; a failure that only a combination of
 * events causes parks the first event that fails given the ones applied before it. About
 * 2·log2(n) extra attempts per failing event.
 * @returns the applied and the parked events, each in their original order.
 * @throws the first error that is not deterministic (and nothing is parked for it): the caller's
 *   transaction is to roll back, so the batch is retried whole later.
 */
export async function applyOrPark<E>(
  events: readonly E[],
  steps: ParkingSteps<E>,
  isDeterministic: (error: unknown) => boolean = isDeterministicFailure,
): Promise<{ applied: E[]; parked: E[] }> {
  const applied: E[] = [];
  const parked: E[] = [];
  const run = async (part: readonly E[]): Promise<void> => {
    if (part.length === 0) return;
    try {
      await steps.attempt(part);
      applied.push(...part);
      return;
    } catch (error) {
      if (!isDeterministic(error)) throw error;
      if (part.length === 1) {
        await steps.park(part[0]!, error);
        parked.push(part[0]!);
        return;
      }
    }
    const middle = Math.ceil(part.length / 2);
    await run(part.slice(0, middle));
    await run(part.slice(middle));
  };
  await run(events);
  return { applied, parked };
}

/** The decision events of stream `operations` the runner acts on (domain events.ts). */
export const PARK_DECISION_TYPES = ['ProjectionEventSkipped', 'ProjectionEventRetryRequested'] as const;

/** An administrator's decision about a park, as the runner reads it from the log. */
export interface ParkDecision {
  kind: 'skip' | 'retry';
  /** Global position of the parked event. */
  position: number;
  /** The skip's reason ('' when none). */
  reason: string;
}

/**
 * The decision `event` carries for `projection`, or null when it is not a decision or addresses
 * another projection (a decision with `projection: null` addresses every projection).
 */
export function parkDecisionFor(event: Pick<RecordedEvent, 'type' | 'data'>, projection: string): ParkDecision | null {
  if (event.type !== 'ProjectionEventSkipped' && event.type !== 'ProjectionEventRetryRequested') return null;
  const data = event.data as { projection?: unknown; position?: unknown; reason?: unknown } | null;
  if (!data || (data.projection !== null && data.projection !== projection)) return null;
  if (typeof data.position !== 'number' || !Number.isSafeInteger(data.position)) return null;
  return {
    kind: event.type === 'ProjectionEventSkipped' ? 'skip' : 'retry',
    position: data.position,
    reason: typeof data.reason === 'string' ? data.reason : '',
  };
}

/** What the runner reports of a park (after its batch committed): never the event's data. */
export interface ParkReport {
  projection: string;
  /** Global position of the parked event. */
  position: number;
  eventId: string;
  eventType: string;
  /** SQLSTATE, or FOLD_ERROR_CODE. */
  errorCode: string;
  error: string;
  /** 'parked': newly parked; 'retried': a retry applied it; 'still-parked': a retry failed again; 'skipped'. */
  outcome: 'parked' | 'retried' | 'still-parked' | 'skipped';
}
