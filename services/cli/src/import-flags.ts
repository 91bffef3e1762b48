/** The command line of `npm run import`. */

/** What `npm run import` was asked. */
export interface ImportFlags {
  /** `--synthetic <events>`: a synthetic edition of about that many events instead of an export. */
  synthetic: number | null;
  /** `--seed <n>`: the synthetic edition's PRNG seed (default 1). */
  seed: number;
  /** `--batch <events>`: events per append (default 5 000). */
  batchEvents: number | null;
  /** `--year <year>`: the edition the export goes into; null: the year the export says (edition.json, route.json). */
  year: number | null;
  /** `--dir <path>`: the export's directory; null: FIXTURE_DIR. */
  dir: string | null;
}

/**
 * The flags of `import`: `--synthetic <events>` (or `--synthetic=<events>`) imports a synthetic
 * edition of about that many events instead of the export (synthetic-edition.ts), `--seed <n>`
 * its PRNG seed (default 1), `--batch <events>` the events per append (default 5 000),
 * `--year <year>` the edition the export goes into (default: the year the export says),
 * `--dir <path>` the export's directory (default FIXTURE_DIR).
 * @throws Error naming an unknown flag or a value that is not a positive integer (a year from 2000 to 9999).
 */
export function parseImportFlags(args: readonly string[]): ImportFlags {
  const flags: ImportFlags = { synthetic: null, seed: 1, batchEvents: null, year: null, dir: null };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const match = /^--(synthetic|seed|batch|year|dir)(?:=(.*))?$/.exec(arg);
    if (!match) throw new Error(`import: unknown argument ${arg} (flags: --year <year>, --dir <path>, --synthetic <events>, --seed <n>, --batch <events>)`);
    const raw = match[2] ?? args[++i];
    if (match[1] === 'dir') {
      if (raw === undefined || raw.trim() === '') throw new Error('import: --dir needs a directory');
      flags.dir = raw;
      continue;
    }
    const value = Number(raw?.replace(/_/g, ''));
    if (raw === undefined || !Number.isSafeInteger(value) || value < 1) throw new Error(`import: --${match[1]} needs a positive integer, not ${String(raw)}`);
    if (match[1] === 'year') {
      if (value < 2000 || value > 9999) throw new Error(`import: --year needs a year from 2000 to 9999, not ${String(raw)}`);
      flags.year = value;
    } else if (match[1] === 'synthetic') flags.synthetic = value;
    else if (match[1] === 'seed') flags.seed = value;
    else flags.batchEvents = value;
  }
  return flags;
}
