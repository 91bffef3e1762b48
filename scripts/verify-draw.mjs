#!/usr/bin/env node
/**
 * Recomputes the Sinilill prize draw from its public data, so that anyone can check it.
 * Plain Node (18 or later), no dependencies.
 *
 *   node scripts/verify-draw.mjs https://sinilill.ee/api/draw
 *   node scripts/verify-draw.mjs draw.json
 *
 * The input is the answer of GET /api/draw. The script checks, in order:
 *   1. SHA-256(seed) equals the commitment published before the draw;
 *   2. the eligible list's count and SHA-256 (ids ascending, decimal, joined by "\n") match;
 *   3. the winners follow from the seed and the list by procedure "sinilill-draw-v1": for
 *      i = 0, 1, … while i < winners and ids remain, h = HMAC-SHA256(key = seed as UTF-8,
 *      message = "sinilill-draw:" + i) read as an unsigned big-endian integer; the winner is
 *      remaining[h mod remaining.length], removed from the remaining list.
 * It prints the recomputed winners and exits 0 when everything matches, 1 when something does
 * not (printing what), 2 when the input cannot be read or the draw has not happened yet.
 */
import { createHash, createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';

const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The winners' ids in draw order (procedure sinilill-draw-v1). */
export function drawWinners(seed, eligible, count) {
  const remaining = [...eligible];
  const winners = [];
  for (let i = 0; i < count && remaining.length > 0; i++) {
    const h = BigInt(`0x${createHmac('sha256', Buffer.from(seed, 'utf8')).update(`sinilill-draw:${i}`, 'utf8').digest('hex')}`);
    winners.push(remaining.splice(Number(h % BigInt(remaining.length)), 1)[0]);
  }
  return winners;
}

async function load(source) {
  if (/^https?:\/\//.test(source)) {
    const response = await fetch(source, { headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`${source} answered ${response.status}`);
    return response.json();
  }
  return JSON.parse(await readFile(source, 'utf8'));
}

async function main() {
  const source = process.argv[2];
  if (!source) {
    console.error('usage: node scripts/verify-draw.mjs <url of /api/draw or JSON file>');
    return 2;
  }
  let draw;
  try {
    draw = await load(source);
  } catch (error) {
    console.error(`cannot read ${source}: ${error.message}`);
    return 2;
  }
  if (draw.procedure !== 'sinilill-draw-v1') {
    console.error(`unknown procedure ${draw.procedure}`);
    return 2;
  }
  if (draw.status !== 'drawn' || typeof draw.seed !== 'string' || !Array.isArray(draw.eligible)) {
    console.error(`the draw has not happened yet (status ${draw.status})`);
    return 2;
  }
  const problems = [];
  if (sha256(draw.seed) !== draw.commitment) problems.push('SHA-256 of the seed is not the commitment');
  const sorted = draw.eligible.every((id, i) => Number.isInteger(id) && (i === 0 || draw.eligible[i - 1] < id));
  if (!sorted) problems.push('the eligible ids are not ascending integers');
  if (draw.eligible.length !== draw.eligibleCount) problems.push(`the list has ${draw.eligible.length} ids, eligibleCount says ${draw.eligibleCount}`);
  if (sha256(draw.eligible.join('\n')) !== draw.eligibleListHash) problems.push('the eligible list does not hash to eligibleListHash');
  const recomputed = drawWinners(draw.seed, draw.eligible, draw.winnersCount);
  const published = draw.winners.map((w) => w.participantId);
  console.log(`eligible: ${draw.eligible.length}, list SHA-256 ${sha256(draw.eligible.join('\n'))}`);
  console.log(`recomputed winners (participant ids, in draw order): ${recomputed.join(', ')}`);
  if (recomputed.length !== published.length || recomputed.some((id, i) => id !== published[i])) {
    problems.push(`published winners ${published.join(', ')} differ from the recomputed ones`);
  }
  for (const problem of problems) console.error(`MISMATCH: ${problem}`);
  if (problems.length > 0) return 1;
  for (const [i, w] of draw.winners.entries()) console.log(`${i + 1}. ${w.firstName ?? '—'} (${w.teamName ?? '—'}), participant ${w.participantId}`);
  console.log('OK: the draw checks out');
  return 0;
}

process.exitCode = await main();
