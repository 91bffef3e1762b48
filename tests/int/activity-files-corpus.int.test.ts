/**
 * The corpus of real device files (packages/activity-files/corpus) once through HTTP, on real
 * PostgreSQL: every file uploaded as a member does, to `POST /api/team/{id}/activity-files`, and the
 * answer compared with the manifest: `distance` within 2 % of the device's own total (plus the
 * 0.005 km of rounding to 0.01 km), `parts` in order with their entry types and distances, the local
 * days, or the catalogue code a planned route or course is refused with. One test gathers every
 * file's difference, so that a failure lists them all.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {} from '@fastify/jwt';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildCommandApi } from '@sinilill/command-api';
import { repoRoot } from '@sinilill/config';
import type { SessionClaims } from '@sinilill/contracts';
import type { ActingUser } from '@sinilill/domain';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const MEMBER: SessionClaims = {
  userId: '00000000-0000-4000-8000-000000000011', fullName: 'Mari Maasikas', is_approved: true, participantId: 11, teamId: 1, role: 'USER', isPaid: true,
};

/** One object of the corpus's manifest.json (its README says how each figure was found). */
interface CorpusEntry {
  file: string;
  device: string;
  timeZone?: string;
  expected: { km: number; kmSource: string; parts?: { entryType: string; km: number }[]; days?: string[]; error?: string };
}

/** The part of an upload's answer compared here (the answer keeps its other fields). */
interface UploadAnswer {
  distance: number;
  performed_at: string | null;
  entry_type: string | null;
  parts?: { entry_type: string | null; distance: number; performed_at: string | null }[];
  message?: string;
}

const CORPUS = join(repoRoot, 'packages/activity-files/corpus');
const manifest = JSON.parse(readFileSync(join(CORPUS, 'manifest.json'), 'utf8')) as CorpusEntry[];

/** The answer's status for each refusal the manifest expects (spec §8's catalogue). */
const STATUS_OF: Readonly<Record<string, number>> = { ACTIVITY_FILE_IS_ROUTE: 400 };

const tolerance = (km: number) => km * 0.02 + 0.005;

/** What differs between an upload's answer and the manifest, in words; [] when nothing does. */
function differences(entry: CorpusEntry, status: number, answer: UploadAnswer): string[] {
  const { expected } = entry;
  if (expected.error) {
    const want = { status: STATUS_OF[expected.error], message: expected.error };
    return status === want.status && answer.message === want.message ? [] : [`answered ${status} ${answer.message ?? `${answer.distance} km`}, not ${want.status} ${want.message}`];
  }
  if (status !== 200) return [`answered ${status} ${String(answer.message)}`];
  const found: string[] = [];
  if (Math.abs(answer.distance - expected.km) > tolerance(expected.km)) found.push(`${answer.distance} km, the device says ${expected.km} km`);
  // An answer from before parts existed is one part: the whole file.
  const parts = answer.parts ?? [{ entry_type: answer.entry_type, distance: answer.distance, performed_at: answer.performed_at }];
  const sum = Math.round(parts.reduce((total, part) => total + part.distance, 0) * 100) / 100;
  if (Math.abs(sum - answer.distance) > 0.005 * parts.length) found.push(`parts add up to ${sum} km, the answer's distance is ${answer.distance} km`);
  if (expected.parts) {
    // A transition between sports has no entry type and a few hundred metres: not compared.
    const compared = parts.filter((part) => part.entry_type !== null || part.distance >= expected.km * 0.02);
    const types = compared.map((part) => part.entry_type);
    const wanted = expected.parts.map((part) => part.entryType);
    if (JSON.stringify(types) !== JSON.stringify(wanted)) found.push(`parts ${JSON.stringify(types)}, not ${JSON.stringify(wanted)}`);
    else compared.forEach((part, index) => {
      const want = expected.parts![index]!.km;
      if (Math.abs(part.distance - want) > tolerance(want)) found.push(`part ${index} ${part.distance} km, not ${want} km`);
    });
  }
  if (expected.days) {
    const days = [...new Set(parts.map((part) => part.performed_at).filter((day): day is string => day !== null))].sort();
    if (JSON.stringify(days) !== JSON.stringify(expected.days)) found.push(`days ${JSON.stringify(days)}, not ${JSON.stringify(expected.days)}`);
  }
  return found;
}

describe('the corpus of real device files through the command API', () => {
  let app: TestApplication;
  let api: FastifyInstance;
  let sessions: TestSessions;
  const system = (id: string) => ({ actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null } });

  beforeAll(async () => {
    app = await testApplication({ now: () => new Date('2025-04-20T10:00:00Z') });
    await app.commands.registerTeam({ teamId: 1, teamName: 'Tartu Tammed', description: '', joinCode: 'AAAA1111', icon: null }, system('t1'));
    await app.commands.registerParticipant({ participantId: 11, teamId: 1, fullName: 'Mari Maasikas', email: 'mari@example.ee', birthYear: 1980, gender: 'FEMALE', isCaptain: true, newsletter: false }, system('p11'));
    sessions = testSessions(app);
    await sessions.enrol(MEMBER);
    api = buildCommandApi({ commands: app.commands, sessions: sessions.accounts, jwtSecret: SECRET });
    await api.ready();
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await app?.close();
  });

  test('every file is answered as its device reads it, or refused as the route it is', async () => {
    expect(manifest.length).toBeGreaterThanOrEqual(30);
    const authorization = await sessions.bearer(api, MEMBER);
    const report: Record<string, string[]> = {};
    for (const entry of manifest) {
      // The upload reads in the edition's zone (Europe/Tallinn); the manifest says when it means another.
      if (entry.timeZone !== undefined && entry.timeZone !== 'Europe/Tallinn') continue;
      const answer = await api.inject({
        method: 'POST', url: '/api/team/1/activity-files',
        headers: { authorization, 'content-type': 'application/octet-stream', 'x-file-name': encodeURIComponent(entry.file) },
        payload: readFileSync(join(CORPUS, entry.file)),
      });
      const found = differences(entry, answer.statusCode, answer.json() as UploadAnswer);
      if (found.length > 0) report[`${entry.file} (${entry.device})`] = found;
    }
    expect(report).toEqual({});
  }, 600_000);
});
