/**
 * The bench's arithmetic and its table: medians and percentiles of samples,
 * ratios to a peer or to a target, numbers written as the docs write them (thin groups of three:
 * "1 440"), and the one table `npm run bench` prints at the end: measure | result | ratio to peer |
 * target. Units are the caller's (events/s, requests/s, ms, s, KB); nothing here measures.
 *
 * A target is either a floor (the result, or its ratio to a peer, must be at least the figure) or
 * a ceiling (at most); the target column says which and whether this run met it. A benchmark, not
 * a test: a missed target is printed, never thrown.
 */

/** One line of the final table. */
export interface Row {
  measure: string;
  /** The figure with its unit, e.g. "1 234 events/s". */
  result: string;
  /** Its ratio to its peer ("0.91× raw"), or to its target when it has no peer; "" for a peer itself. */
  ratio: string;
  /** The target, with "met"/"missed" when the run can judge it; "" when none. */
  target: string;
  /** The same line of the last kept run and the change (kept-runs.ts); absent before comparing. */
  previous?: string;
}

/** The middle value (mean of the two middle ones for an even count); NaN for no samples. */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Nearest-rank percentile `p` (0–100) of ascending `sorted`; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** An integer with its thousands grouped by spaces: 20000 → "20 000". */
export function grouped(value: number, decimals = 0): string {
  if (!Number.isFinite(value)) return String(value);
  const [whole, fraction] = Math.abs(value).toFixed(decimals).split('.');
  const groups = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return `${value < 0 ? '-' : ''}${groups}${fraction ? `.${fraction}` : ''}`;
}

/** `a / b` as "1.23×". */
export function times(a: number, b: number): string {
  return `${(a / b).toFixed(2)}×`;
}

/** "met" when `ok`, else "missed" (for the target column). */
export function verdict(ok: boolean): string {
  return ok ? 'met' : 'MISSED';
}

/** Spread of the samples, "min–max", in the unit's usual rounding. */
export function spread(samples: readonly number[], decimals = 0): string {
  return `${grouped(Math.min(...samples), decimals)}–${grouped(Math.max(...samples), decimals)}`;
}

/** Prints the rows as an aligned text table with a header line, then the notes, one a line. */
export function printTable(rows: readonly Row[], notes: readonly string[] = []): void {
  const withPrevious = rows.some((row) => row.previous !== undefined);
  const header: Row = { measure: 'measure', result: 'result', ratio: 'ratio to peer', target: 'target', ...(withPrevious ? { previous: 'last kept run' } : {}) };
  const all = [header, ...rows];
  const width = (key: 'measure' | 'result' | 'ratio' | 'target') => Math.max(...all.map((row) => row[key].length));
  const widths = { measure: width('measure'), result: width('result'), ratio: width('ratio'), target: width('target') };
  const line = (row: Row) => `${row.measure.padEnd(widths.measure)} | ${row.result.padStart(widths.result)} | ${row.ratio.padEnd(widths.ratio)} | ` +
    (withPrevious ? `${row.target.padEnd(widths.target)} | ${row.previous ?? ''}` : row.target);
  console.log(`\n${line(header)}`);
  console.log(`${'-'.repeat(widths.measure)}-+-${'-'.repeat(widths.result)}-+-${'-'.repeat(widths.ratio)}-+-${'-'.repeat(withPrevious ? widths.target : 24)}${withPrevious ? `-+-${'-'.repeat(24)}` : ''}`);
  for (const row of rows) console.log(line(row));
  if (notes.length > 0) console.log('');
  for (const note of notes) console.log(`note: ${note}`);
}

/** A progress line while the bench runs (stderr, so that the table on stdout stays clean). */
export function progress(message: string): void {
  process.stderr.write(`bench [${(performance.now() / 1000).toFixed(0)} s]: ${message}\n`);
}
