/**
 * Imports an export of the old system (the 2025 edition's teams.csv, participants.csv and
 * entries.csv; fixture README) as events, through the same CommandService the API uses.
 *
 * - The actor is SYSTEM, the metadata says `imported`, and each command's time is the row's
 *   original created_at (entries) so events carry the old system's times.
 * - Command ids are derived from the export's ids (`import:<edition>:<kind>:<id>`), so a second
 *   run finds every command handled already and appends nothing.
 * - Text is imported as written: quotes, emoji, markup-like text and Estonian letters are data.
 * - Imported people have no password (they set one through forgot-password, issue 3).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { CommandService, IdAllocator } from '@sinilill/commands';
import type { ActingUser, Gender } from '@sinilill/domain';

interface TeamRow { id: string; team_name: string; description: string; join_code: string; created_at: string }
interface ParticipantRow {
  id: string; full_name: string; email: string; gender: string; birth_year: string; team_id: string;
  is_paid: string; is_captain: string; created_at: string;
}
interface EntryRow {
  id: string; team_id: string; participant_id: string; distance: string; entry_type: string;
  performed_at: string; created_at: string;
}

export interface ImportProgress {
  phase: 'teams' | 'participants' | 'entries';
  done: number;
  total: number;
}

export interface ImportResult {
  teams: number;
  participants: number;
  entries: number;
  /** The highest global position the import's commands reached (of the first run, on a repeat). */
  position: number;
  milliseconds: number;
}

const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };

function readCsv<T>(dir: string, file: string): T[] {
  return parse(readFileSync(join(dir, file), 'utf8'), { columns: true, skip_empty_lines: true, bom: true }) as T[];
}

/** Runs `work` over `items` with at most `limit` in flight. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item);
    }
  });
  await Promise.all(runners);
}

/**
 * Imports the export in `dir` (an edition's CSVs).
 * @throws DomainError when a row breaks a rule (the message names the row); rows before it stay
 *   imported and a re-run continues where it stopped.
 */
export async function importEdition(options: {
  dir: string;
  edition: number;
  commands: CommandService;
  ids: IdAllocator;
  concurrency?: number;
  onProgress?: (progress: ImportProgress) => void;
  /** Called after each phase with the highest position so far (wake the projectors). */
  onPhaseDone?: (position: number) => Promise<void> | void;
}): Promise<ImportResult> {
  const started = performance.now();
  const { commands, dir } = options;
  const concurrency = options.concurrency ?? 8;
  const teams = readCsv<TeamRow>(dir, 'teams.csv');
  const participants = readCsv<ParticipantRow>(dir, 'participants.csv');
  const entries = readCsv<EntryRow>(dir, 'entries.csv');
  const prefix = `import:${options.edition}`;
  let position = 0;
  const track = (result: { position: number }) => {
    position = Math.max(position, result.position);
  };
  const request = (commandId: string, now: string) => ({
    actor: SYSTEM,
    metadata: { commandId, correlationId: `${prefix}`, causationId: null, imported: true },
    now: new Date(now),
  });
  const fail = (what: string, error: unknown): never => {
    throw Object.assign(new Error(`import stopped at ${what}: ${(error as Error).message}`), { cause: error });
  };

  let done = 0;
  await inParallel(teams, concurrency, async (row) => {
    const result = await commands.registerTeam(
      { teamId: Number(row.id), teamName: row.team_name, description: row.description, joinCode: row.join_code, icon: null },
      request(`${prefix}:team:${row.id}`, row.created_at),
    ).catch((error: unknown) => fail(`team ${row.id}`, error));
    track(result);
    options.onProgress?.({ phase: 'teams', done: ++done, total: teams.length });
  });
  await options.ids.reserveThrough('team', Math.max(0, ...teams.map((t) => Number(t.id))));
  await options.onPhaseDone?.(position);

  done = 0;
  await inParallel(participants, concurrency, async (row) => {
    const id = Number(row.id);
    const registered = await commands.registerParticipant({
      participantId: id, teamId: Number(row.team_id), fullName: row.full_name, email: row.email,
      birthYear: Number(row.birth_year), gender: row.gender as Gender, isCaptain: row.is_captain === 'true',
      newsletter: false,
    }, request(`${prefix}:participant:${row.id}`, row.created_at))
      .catch((error: unknown) => fail(`participant ${row.id}`, error));
    track(registered);
    if (row.is_paid === 'true') {
      const paid = await commands.markPayment(id, true, request(`${prefix}:participant-paid:${row.id}`, row.created_at))
        .catch((error: unknown) => fail(`payment of participant ${row.id}`, error));
      track(paid);
    }
    options.onProgress?.({ phase: 'participants', done: ++done, total: participants.length });
  });
  await options.ids.reserveThrough('participant', Math.max(0, ...participants.map((p) => Number(p.id))));
  await options.onPhaseDone?.(position);

  done = 0;
  await inParallel(entries, concurrency, async (row) => {
    const result = await commands.addEntry({
      entryId: Number(row.id), participantId: Number(row.participant_id), distance: Number(row.distance),
      entryType: row.entry_type, performedAt: row.performed_at,
    }, request(`${prefix}:entry:${row.id}`, row.created_at))
      .catch((error: unknown) => fail(`entry ${row.id}`, error));
    track(result);
    options.onProgress?.({ phase: 'entries', done: ++done, total: entries.length });
  });
  await options.ids.reserveThrough('entry', Math.max(0, ...entries.map((e) => Number(e.id))));
  await options.onPhaseDone?.(position);

  return {
    teams: teams.length, participants: participants.length, entries: entries.length,
    position, milliseconds: performance.now() - started,
  };
}
