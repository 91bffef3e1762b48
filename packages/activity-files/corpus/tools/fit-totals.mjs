// One-off, independent of our reader: the device's own figures in FIT files, read with
// @garmin/fitsdk directly. Prints one JSON line per file: file type, maker, sessions (sport,
// sub-sport, total_distance in km, start and end), the laps' total_distance (km), decoder errors,
// first and last record time.
// Usage: node tools/fit-totals.mjs *.fit   (run from the corpus folder, inside the repository)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../package.json', import.meta.url));
const { Decoder, Stream } = await import(require.resolve('@garmin/fitsdk'));

for (const path of process.argv.slice(2)) {
  const { messages, errors } = new Decoder(Stream.fromByteArray(readFileSync(path))).read();
  const fileId = messages.fileIdMesgs?.[0] ?? {};
  const sessions = (messages.sessionMesgs ?? []).map((session) => ({
    sport: session.sport ?? null, subSport: session.subSport ?? null,
    km: session.totalDistance == null ? null : session.totalDistance / 1000,
    start: session.startTime?.toISOString() ?? null, end: session.timestamp?.toISOString() ?? null,
  }));
  // A course has no session: its laps' total_distance is the planned length.
  const lapsKm = (messages.lapMesgs ?? []).reduce((sum, lap) => sum + (lap.totalDistance ?? 0), 0) / 1000;
  const times = (messages.recordMesgs ?? []).map((record) => record.timestamp).filter(Boolean);
  console.log(JSON.stringify({
    file: path.split('/').pop(), type: fileId.type, manufacturer: fileId.manufacturer,
    product: fileId.garminProduct ?? fileId.product ?? null, sessions,
    km: sessions.reduce((sum, session) => sum + (session.km ?? 0), 0), lapsKm,
    errors: errors.map((error) => error.message), first: times[0]?.toISOString() ?? null, last: times.at(-1)?.toISOString() ?? null,
  }));
}
