/**
 * Reads one activity file from disk and prints what it cost, as one JSON line: `{ bytes, seconds,
 * maxRssMb, heapUsedMb, parts: [{ sport, distanceKm, performedAt }] }` (maxRssMb: the process's
 * peak resident memory, from process.resourceUsage(), MB). For measuring the reader under a small
 * heap: `npm run measure -w @sinilill/activity-files -- FILE` (a 32 MB heap).
 * A refusal prints `{ error: CODE }` and exits 1.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { DomainError } from '@sinilill/domain';
import { readActivityFile } from './read';

const path = process.argv[2];
if (!path) {
  process.stderr.write('usage: measure-read.ts FILE\n');
  process.exit(2);
}
const bytes = readFileSync(path);
const started = performance.now();
try {
  const proposal = readActivityFile(bytes, basename(path));
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(
    `${JSON.stringify({
      bytes: bytes.byteLength,
      seconds: Math.round(seconds * 1000) / 1000,
      maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      heapUsedMb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
      parts: proposal.parts.map(({ sport, distanceKm, performedAt }) => ({ sport, distanceKm, performedAt })),
    })}\n`,
  );
} catch (error) {
  process.stdout.write(`${JSON.stringify({ error: error instanceof DomainError ? error.code : String(error) })}\n`);
  process.exit(1);
}
