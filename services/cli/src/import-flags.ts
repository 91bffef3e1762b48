/** The command line of `npm run import`. */

/**
 * The flags of `import`: `--synthetic <events>` (or `--synthetic=<events>`) imports a synthetic
 * edition of about that many events instead of the export (synthetic-edition.ts), `--seed <n>`
 * its PRNG seed (default 1), `--batch <events>` the events per append (default 5 000).
 * @throws Error naming an unknown flag or a value that is not a positive integer.
 */
export function parseImportFlags(args: readonly string[]): { synthetic: number | null; seed: number; batchEvents: number | null } {
  const flags = { synthetic: null as number | null, seed: 1, batchEvents: null as number | null };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const match = /^--(synthetic|seed|batch)(?:=(.*))?$/.exec(arg);
    if (!match) throw new Error(`import: unknown argument ${arg} (flags: --synthetic <events>, --seed <n>, --batch <events>)`);
    const raw = match[2] ?? args[++i];
    const value = Number(raw?.replace(/_/g, ''));
    if (raw === undefined || !Number.isSafeInteger(value) || value < 1) throw new Error(`import: --${match[1]} needs a positive integer, not ${String(raw)}`);
    if (match[1] === 'synthetic') flags.synthetic = value;
    else if (match[1] === 'seed') flags.seed = value;
    else flags.batchEvents = value;
  }
  return flags;
}
