/**
 * A small slice of the 2025 export for tests that need real-looking data but not all of it:
 * the first `teams` teams with their participants and entries, written to a temporary folder
 * that importEdition reads like the real one. Line-based: the export has no quoted line breaks,
 * and the columns used to filter (ids) never hold commas.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_DIR } from './app';

/** Writes the slice and returns its folder. */
export function smallEdition(teams: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'sinilill-small-edition-'));
  const keep = (file: string, teamIdOf: (fields: string[]) => string) => {
    const [header, ...lines] = readFileSync(join(FIXTURE_DIR, file), 'utf8').split('\n').filter((l) => l.trim() !== '');
    const kept = lines.filter((line) => Number(teamIdOf(line.split(','))) <= teams);
    writeFileSync(join(dir, file), [header, ...kept].join('\n') + '\n');
  };
  keep('teams.csv', (f) => f[0]!);
  // participants: …,team_id,is_paid,is_captain,created_at — counted from the right (names may hold commas).
  keep('participants.csv', (f) => f[f.length - 4]!);
  keep('entries.csv', (f) => f[1]!);
  return dir;
}
