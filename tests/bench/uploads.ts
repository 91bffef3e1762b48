/**
 * Activity-file uploads through HTTP: POST /api/team/{id}/activity-files of a GPX of 1, 10 and
 * 19 MB to the real command API (`buildCommandApi`, listening on 127.0.0.1 in this process, a
 * member's live session), whose route reads each file as production does, in a child process of
 * its own with the default heap (ACTIVITY_FILE_WORKER_HEAP_MB). Units: seconds from the request's
 * first byte to the answer (the upload over loopback, the reading child's start, its reading and
 * the proposal's answer), MB of peak resident memory of the reading child (its getrusage maxrss,
 * which it sends with its answer) and of this process, the API's (sampled every 10 ms; its growth
 * over the moment before the upload is printed too: the body held whole, its copy to the child).
 *
 * The files: a track recorded as Garmin Connect writes a GPX (ele, time, the TrackPointExtension's
 * heart rate and cadence: about 330 bytes a point), one point a second, laps of a 2.5 km loop in
 * Kadriorg park repeated until the file has its size, all on one day in Tallinn. The answer must be
 * 200 with one part of the file's km; anything else is printed as the row's result.
 *
 * Target: every size answers 200 within 10 s (the upload limit is 20 MiB: any file under it is
 * read in bounded memory and within seconds).
 *
 * Run alone: `npx tsx tests/bench/uploads.ts` (starts its own PostgreSQL and Redis unless
 * DATABASE_URL / REDIS_URL are set); `npm run bench` runs it with the rest.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { CommandService, PostgresIdAllocator } from '@sinilill/commands';
import { ACTIVITY_FILE_WORKER_HEAP_MB, buildCommandApi, onActivityFileRead, type ActivityFileReading } from '@sinilill/command-api';
import type { SessionClaims } from '@sinilill/contracts';
import { repoRoot } from '@sinilill/config';
import { PERSONAL_DATA_FIELDS, type ActingUser } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection } from '@sinilill/event-store';
import { createScratchDatabase, startLocalServers } from '@sinilill/local-infra';
import { migrateToLatest } from '@sinilill/cli';
import { testSessions } from '../support/sessions';
import { grouped, printTable, progress, verdict, type Row } from './report';

/** Sizes of the files, MB (10^6 bytes). */
export const UPLOAD_SIZES_MB = [1, 10, 19] as const;
/** The target: each answered 200 within this many seconds. */
export const UPLOAD_TARGET = { seconds: 10 } as const;

const JWT_SECRET = 'bench-jwt-secret-that-is-long-enough-for-hs256-0123456789';
const NOW = new Date('2025-04-20T10:00:00Z');
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };

export interface UploadFigures {
  sizeMb: number;
  bytes: number;
  status: number;
  /** The answer's km, or its error code. */
  answer: string;
  seconds: number;
  readerPeakRssMb: number | null;
  apiPeakRssMb: number;
  apiGrowthMb: number;
}

/**
 * A GPX of about `bytes` bytes as Garmin Connect writes one: a 2.5 km loop (Kadriorg, Tallinn)
 * walked round and round, one point a second from 05:00 Tallinn time on 12 April 2025.
 */
export function garminGpxOf(bytes: number): Buffer {
  const head = `<?xml version="1.0" encoding="UTF-8"?>
<gpx creator="Garmin Connect" version="1.1"
  xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/11.xsd"
  xmlns="http://www.topografix.com/GPX/1/1"
  xmlns:ns3="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"
  xmlns:ns2="http://www.garmin.com/xmlschemas/GpxExtensions/v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <metadata>
    <time>2025-04-12T02:00:00.000Z</time>
  </metadata>
  <trk>
    <name>Kadrioru ringid</name>
    <type>running</type>
    <trkseg>
`;
  const tail = '    </trkseg>\n  </trk>\n</gpx>\n';
  // A loop of 2.5 km: a circle of radius 398 m around the park's centre.
  const [lat0, lon0, radiusM] = [59.4386, 24.7913, 398];
  const pointsPerLap = 900; // about 2.8 m a second
  const chunks: string[] = [head];
  let size = head.length + tail.length;
  const t0 = Date.parse('2025-04-12T02:00:00.000Z');
  for (let i = 0; size < bytes; i++) {
    const angle = (2 * Math.PI * (i % pointsPerLap)) / pointsPerLap;
    const lat = lat0 + (radiusM * Math.sin(angle)) / 111_320;
    const lon = lon0 + (radiusM * Math.cos(angle)) / (111_320 * Math.cos((lat0 * Math.PI) / 180));
    const point = `      <trkpt lat="${lat.toFixed(7)}" lon="${lon.toFixed(7)}">
        <ele>${(12 + 3 * Math.sin(angle * 3)).toFixed(1)}</ele>
        <time>${new Date(t0 + i * 1000).toISOString()}</time>
        <extensions>
          <ns3:TrackPointExtension>
            <ns3:hr>${140 + (i % 17)}</ns3:hr>
            <ns3:cad>${84 + (i % 5)}</ns3:cad>
          </ns3:TrackPointExtension>
        </extensions>
      </trkpt>
`;
    chunks.push(point);
    size += point.length;
  }
  chunks.push(tail);
  return Buffer.from(chunks.join(''));
}

/**
 * Uploads each size once to a command API in this process (module comment), on a scratch database
 * of `serverUrl`'s. A refusal is a figure (its status and code), not an error.
 */
export async function measureUploads(options: { serverUrl: string; sizesMb?: readonly number[] }): Promise<UploadFigures[]> {
  const databaseUrl = await createScratchDatabase(options.serverUrl, 'bench_uploads');
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 8 });
  const now = () => NOW;
  const api = await (async () => {
    await migrateToLatest(pool);
    const store = withPersonalDataProtection(new PostgresEventStore({ pool }), new PersonalDataVault({ pool }), PERSONAL_DATA_FIELDS);
    const ids = new PostgresIdAllocator(pool);
    const commands = new CommandService({ store, ids, now });
    const system = (id: string) => ({ actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null } });
    await commands.registerTeam({ teamId: 1, teamName: 'Pingi Pingviinid', description: '', joinCode: 'BENCH111', icon: null }, system('bench-team'));
    await commands.registerParticipant({ participantId: 1, teamId: 1, fullName: 'Mari Maasikas', email: 'mari@example.ee', birthYear: 1980, gender: 'FEMALE', isCaptain: true, newsletter: false }, system('bench-member'));
    const sessions = testSessions({ pool, store, ids }, { now });
    const member: SessionClaims = { userId: randomUUID(), fullName: 'Mari Maasikas', is_approved: true, participantId: 1, teamId: 1, role: 'USER', isPaid: true };
    await sessions.enrol(member);
    const built = buildCommandApi({ commands, sessions: sessions.accounts, jwtSecret: JWT_SECRET, logger: false });
    return { built, authorization: () => sessions.bearer(built, member) };
  })();
  const readings: ActivityFileReading[] = [];
  const stop = onActivityFileRead((reading) => readings.push(reading));
  try {
    const url = await api.built.listen({ host: '127.0.0.1', port: 0 });
    const figures: UploadFigures[] = [];
    for (const sizeMb of options.sizesMb ?? UPLOAD_SIZES_MB) {
      const body = garminGpxOf(sizeMb * 1_000_000);
      global.gc?.();
      const before = process.memoryUsage.rss();
      let peak = before;
      const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); }, 10);
      progress(`uploads: a ${sizeMb} MB GPX (${grouped(body.length)} bytes)`);
      const started = performance.now();
      const response = await fetch(`${url}/api/team/1/activity-files`, {
        method: 'POST', body: new Uint8Array(body),
        headers: { authorization: api.authorization(), 'content-type': 'application/octet-stream', 'x-file-name': `kadriorg-${sizeMb}mb.gpx` },
      });
      const answer = await response.json() as { distance?: number; parts?: unknown[]; message?: string };
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage.rss());
      const reading = readings.at(-1);
      figures.push({
        sizeMb, bytes: body.length, status: response.status,
        answer: response.status === 200 ? `${answer.distance} km in ${answer.parts?.length ?? 1} part(s)` : String(answer.message),
        seconds,
        readerPeakRssMb: reading?.readerPeakRssBytes == null ? null : reading.readerPeakRssBytes / 1_048_576,
        apiPeakRssMb: peak / 1_048_576, apiGrowthMb: (peak - before) / 1_048_576,
      });
      progress(`uploads: ${sizeMb} MB answered ${response.status} (${figures.at(-1)!.answer}) in ${seconds.toFixed(2)} s`);
    }
    return figures;
  } finally {
    stop();
    await api.built.close();
    await pool.end();
  }
}

/** The table's rows: one per size. */
export function uploadRows(figures: readonly UploadFigures[]): Row[] {
  return figures.map((f) => {
    const ok = f.status === 200 && f.seconds <= UPLOAD_TARGET.seconds;
    const reader = f.readerPeakRssMb === null ? 'reader died' : `reader peak ${grouped(f.readerPeakRssMb)} MB`;
    return {
      measure: `upload: ${f.sizeMb} MB GPX through HTTP, time to answer (${f.status}: ${f.answer}; child heap ${ACTIVITY_FILE_WORKER_HEAP_MB} MB)`,
      result: `${f.seconds.toFixed(2)} s; ${reader}; API peak ${grouped(f.apiPeakRssMb)} MB (+${grouped(f.apiGrowthMb)})`,
      ratio: `${(f.seconds / UPLOAD_TARGET.seconds).toFixed(2)}× limit (no peer)`,
      target: `200 within ${UPLOAD_TARGET.seconds} s (${verdict(ok)})`,
    };
  });
}

/** Run alone (module comment). */
async function main(): Promise<void> {
  const tmp = mkdtempSync(join(repoRoot, '.tmp-bench-uploads-'));
  chmodSync(tmp, 0o755);
  const servers = await startLocalServers(tmp, { databaseServerUrl: process.env.DATABASE_URL, redisUrl: process.env.REDIS_URL });
  try {
    printTable(uploadRows(await measureUploads({ serverUrl: servers.databaseServerUrl })));
  } finally {
    await servers.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
