/**
 * The prize draw's commands (packages/domain draw): an administrator commits to a
 * secret seed, later reveals it, and the winners follow from the seed and the eligible list by the
 * documented procedure below — which scripts/verify-draw.mjs repeats byte for byte from the public
 * answer (GET /api/draw), so anyone can check the result.
 *
 * The procedure (DRAW_PROCEDURE), for a seed string S and eligible participant ids E ascending:
 *   1. eligibleListHash = SHA-256 hex of the UTF-8 text of E's ids in decimal joined by "\n";
 *   2. remaining = E; for i = 0, 1, … while i < winners and remaining is not empty:
 *      h = HMAC-SHA256(key = UTF-8 bytes of S, message = "sinilill-draw:" + i), read as an unsigned
 *      big-endian integer; k = h mod remaining.length; the i-th winner is remaining[k], which is
 *      removed from remaining.
 * The modulo bias is below 2^-200 for any realistic list (a 256-bit number over ≤ 10^6 ids).
 */
import { createHash, createHmac } from 'node:crypto';
import {
  DomainError,
  DRAW_ELIGIBILITY_EVENTS,
  drawDecider,
  eligibleAsOfDeadline,
  streams,
  type Edition,
  type EligibleParticipant,
} from '@sinilill/domain';
import type { EventStore } from '@sinilill/event-store';
import { handleCommand } from '../execute-command';
import type { CommandRequest } from '../metadata';
import { decisionContext, editionSourceOf, type CommandServiceDependencies } from '../context';

/** The HMAC message prefix of the procedure (step 2). */
export const DRAW_MESSAGE_PREFIX = 'sinilill-draw:';

/** SHA-256 hex of a string's UTF-8 bytes. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Step 1 of the procedure: the SHA-256 hex of the ascending ids joined by "\n". */
export function eligibleListHash(eligible: readonly number[]): string {
  return sha256Hex(eligible.join('\n'));
}

/**
 * Step 2 of the procedure: the winners' ids in draw order (at most `count`, fewer when the list is
 * shorter). Pure and deterministic: the same seed and list give the same winners.
 */
export function drawWinners(seed: string, eligible: readonly number[], count: number): number[] {
  const remaining = [...eligible];
  const winners: number[] = [];
  for (let i = 0; i < count && remaining.length > 0; i++) {
    const h = BigInt(`0x${createHmac('sha256', Buffer.from(seed, 'utf8')).update(`${DRAW_MESSAGE_PREFIX}${i}`, 'utf8').digest('hex')}`);
    const k = Number(h % BigInt(remaining.length));
    winners.push(remaining.splice(k, 1)[0]!);
  }
  return winners;
}

/**
 * The edition whose draw a command is about: `year`'s, else the current one at `nowIso`.
 * @throws DomainError('NOT_FOUND') when there is no such edition.
 */
async function drawEdition(deps: CommandServiceDependencies, nowIso: string, year?: number): Promise<Edition> {
  const catalog = await editionSourceOf(deps).catalog();
  const record = year === undefined ? catalog.current(nowIso) : catalog.get(year);
  if (!record) throw new DomainError('NOT_FOUND', `edition ${year ?? 'current'}`);
  return record.edition;
}

/** Reads the log's DRAW_ELIGIBILITY_EVENTS in global order and folds the eligible list (as of the deadline). */
export async function eligibleParticipants(store: EventStore, edition: Edition): Promise<EligibleParticipant[]> {
  const events = [];
  let after = 0;
  for (;;) {
    const batch = await store.readAll({ after, maxCount: 5000, types: DRAW_ELIGIBILITY_EVENTS, metadata: false });
    if (batch.length === 0) break;
    events.push(...batch);
    after = batch.at(-1)!.globalPosition;
  }
  return eligibleAsOfDeadline(events, edition);
}

/**
 * Publishes the commitment (administrators): `commitment` the SHA-256 hex of the secret seed,
 * `drawAt` the draw's instant (ISO-8601, after 3 May 24:00 Europe/Tallinn), `winners` 1..100.
 * @throws DomainError FORBIDDEN, INVALID_REQUEST, DRAW_NOT_YET_ALLOWED, DRAW_ALREADY_COMMITTED.
 */
export async function commitDraw(
  deps: CommandServiceDependencies,
  input: { commitment: string; drawAt: string; winners: number },
  request: CommandRequest,
  year?: number,
): Promise<{ position: number }> {
  const ctx = await decisionContext(deps, request);
  const edition = await drawEdition(deps, ctx.now, year);
  const result = await handleCommand(deps.store, streams.draw(edition.year), drawDecider, {
    type: 'CommitDraw',
    data: { year: edition.year, ...input, lateEntriesUntil: edition.lateEntriesUntil, timeZone: edition.timeZone },
  }, ctx, request.metadata);
  return { position: result.position };
}

/**
 * Reveals the seed and draws (administrators, at or after `drawAt`): folds the eligible list as of
 * the deadline, runs the procedure and appends DrawSeedRevealed + DrawWinnersChosen.
 * @throws DomainError FORBIDDEN, DRAW_NOT_COMMITTED, DRAW_ALREADY_DONE, DRAW_NOT_YET_ALLOWED, DRAW_SEED_MISMATCH.
 */
export async function revealDraw(
  deps: CommandServiceDependencies,
  input: { seed: string },
  request: CommandRequest,
  year?: number,
): Promise<{ position: number; winners: EligibleParticipant[] }> {
  const ctx = await decisionContext(deps, request);
  const edition = await drawEdition(deps, ctx.now, year);
  const stream = streams.draw(edition.year);
  const state = (await deps.store.readStream(stream)).reduce(
    (s, event) => drawDecider.evolve(s, event as unknown as Parameters<typeof drawDecider.evolve>[1]), drawDecider.initialState());
  // The eligible list only when the draw may happen (the decider refuses otherwise; no wasted read).
  const eligible = state.committed && !state.revealed ? await eligibleParticipants(deps.store, edition) : [];
  const ids = eligible.map((p) => p.participantId);
  const teamOf = new Map(eligible.map((p) => [p.participantId, p.teamId]));
  const winners = drawWinners(input.seed, ids, state.winners).map((participantId) => ({ participantId, teamId: teamOf.get(participantId)! }));
  const asOf = `${edition.lateEntriesUntil}T24:00 ${edition.timeZone}`;
  const result = await handleCommand(deps.store, stream, drawDecider, {
    type: 'RevealDraw',
    data: { year: edition.year, seed: input.seed, seedSha256: sha256Hex(input.seed), asOf, eligible: ids, eligibleListHash: eligibleListHash(ids), winners },
  }, ctx, request.metadata);
  return { position: result.position, winners };
}
