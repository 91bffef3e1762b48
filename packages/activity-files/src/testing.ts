/**
 * Activity files made for tests (unit, integration and browser): a GPX and a TCX as text, a FIT
 * through the FIT SDK's own Encoder. Each walks `points` steps of about 100 m north from Tallinn's
 * Town Hall Square, one point a minute from `start`. For tests only: import
 * '@sinilill/activity-files/testing'.
 */
import { CrcCalculator, Encoder, Profile, type FileIdMesg, type RecordMesg, type SessionMesg } from '@garmin/fitsdk';

export interface TrackSpec {
  /** ISO-8601 UTC of the first point. */
  start: string;
  /** Number of points (>= 2 for a distance). */
  points: number;
  /** Degrees of latitude between points (default 0.0009, about 100 m). */
  step?: number;
}

/** Tallinn's Town Hall Square, degrees. */
const LAT0 = 59.437;
const LON0 = 24.7454;

function trackOf({ start, points, step = 0.0009 }: TrackSpec): { lat: number; lon: number; time: Date }[] {
  const t0 = Date.parse(start);
  return Array.from({ length: points }, (_, i) => ({ lat: LAT0 + i * step, lon: LON0, time: new Date(t0 + i * 60_000) }));
}

/** A GPX 1.1 track; `type` is the track's <type> (e.g. 'running'), left out when null. */
export function gpxFile(spec: TrackSpec, type: string | null = 'running'): Uint8Array {
  const points = trackOf(spec).map((p) => `<trkpt lat="${p.lat.toFixed(6)}" lon="${p.lon.toFixed(6)}"><time>${p.time.toISOString()}</time></trkpt>`).join('\n');
  return new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="sinilill-tests" xmlns="http://www.topografix.com/GPX/1/1">
<trk><name>Test</name>${type === null ? '' : `<type>${type}</type>`}<trkseg>
${points}
</trkseg></trk>
</gpx>
`);
}

/** A TCX activity of one lap; `distanceMetres` is the lap's own DistanceMeters. */
export function tcxFile(spec: TrackSpec, sport = 'Biking', distanceMetres = 1234.5): Uint8Array {
  const track = trackOf(spec);
  const points = track.map((p) => `<Trackpoint><Time>${p.time.toISOString()}</Time><Position><LatitudeDegrees>${p.lat.toFixed(6)}</LatitudeDegrees><LongitudeDegrees>${p.lon.toFixed(6)}</LongitudeDegrees></Position></Trackpoint>`).join('\n');
  return new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8"?>
<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
<Activities><Activity Sport="${sport}"><Id>${track[0]!.time.toISOString()}</Id>
<Lap StartTime="${track[0]!.time.toISOString()}"><TotalTimeSeconds>${track.length * 60}</TotalTimeSeconds><DistanceMeters>${distanceMetres}</DistanceMeters><Track>
${points}
</Track></Lap></Activity></Activities>
</TrainingCenterDatabase>
`);
}

const SEMICIRCLES_PER_DEGREE = 2 ** 31 / 180;

/**
 * A FIT activity (file id, records with positions and distances, a session with sport and
 * total_distance), written by @garmin/fitsdk's Encoder. `totalMetres` null leaves the session's
 * total out (the reader then measures the track).
 */
export function fitFile(spec: TrackSpec, sport = 'running', subSport = 'generic', totalMetres: number | null = 5000): Uint8Array {
  const track = trackOf(spec);
  const encoder = new Encoder();
  encoder.onMesg(Profile.MesgNum.FILE_ID!, { manufacturer: 'development', product: 1, timeCreated: track[0]!.time, type: 'activity' } as FileIdMesg);
  track.forEach((p, i) => {
    encoder.onMesg(Profile.MesgNum.RECORD!, {
      timestamp: p.time,
      positionLat: Math.round(p.lat * SEMICIRCLES_PER_DEGREE),
      positionLong: Math.round(p.lon * SEMICIRCLES_PER_DEGREE),
      distance: i * 100,
    } as RecordMesg);
  });
  const last = track.at(-1)!.time;
  encoder.onMesg(Profile.MesgNum.SESSION!, {
    timestamp: last,
    startTime: track[0]!.time,
    sport,
    subSport,
    totalElapsedTime: (last.getTime() - track[0]!.time.getTime()) / 1000,
    ...(totalMetres !== null ? { totalDistance: totalMetres } : {}),
  } as SessionMesg);
  return encoder.close();
}

/** One leg of a multi-sport FIT: its sport, sub-sport, points (as TrackSpec, from the leg's start) and the session's total. */
export interface LegSpec {
  sport: string;
  subSport?: string;
  start: string;
  points: number;
  totalMetres: number;
  step?: number;
}

/**
 * A multi-sport FIT as a Forerunner writes one: file id, every leg's records, then one session
 * per leg (sport, sub-sport, start, total_distance) at the end of the file.
 */
export function multiSportFitFile(legs: readonly LegSpec[], type: 'activity' | 'course' = 'activity'): Uint8Array {
  const encoder = new Encoder();
  encoder.onMesg(Profile.MesgNum.FILE_ID!, { manufacturer: 'development', product: 1, timeCreated: new Date(legs[0]!.start), type } as FileIdMesg);
  let distance = 0;
  const sessions: SessionMesg[] = [];
  for (const leg of legs) {
    const track = trackOf(leg);
    track.forEach((p, i) => {
      encoder.onMesg(Profile.MesgNum.RECORD!, {
        timestamp: p.time,
        positionLat: Math.round(p.lat * SEMICIRCLES_PER_DEGREE),
        positionLong: Math.round(p.lon * SEMICIRCLES_PER_DEGREE),
        distance: distance + (i * leg.totalMetres) / Math.max(1, track.length - 1),
      } as RecordMesg);
    });
    distance += leg.totalMetres;
    const last = track.at(-1)!.time;
    sessions.push({
      timestamp: last,
      startTime: track[0]!.time,
      sport: leg.sport,
      subSport: leg.subSport ?? 'generic',
      totalElapsedTime: (last.getTime() - track[0]!.time.getTime()) / 1000,
      totalDistance: leg.totalMetres,
    } as SessionMesg);
  }
  for (const session of sessions) encoder.onMesg(Profile.MesgNum.SESSION!, session);
  return encoder.close();
}

/**
 * The FIT with a data message of an undefined local message type appended after its last message,
 * header size and both CRCs made right again: a well-formed file on which @garmin/fitsdk's
 * decoder throws after everything before it was read (as it does on a Forerunner 255 triathlon).
 */
export function withDecoderErrorAtEnd(fit: Uint8Array): Uint8Array {
  const headerSize = fit[0]!;
  const view = new DataView(fit.buffer, fit.byteOffset, fit.byteLength);
  const dataSize = view.getUint32(4, true);
  // 0x0f: a normal data message of local type 15, never defined in an encoder's output; then a filler byte.
  const extra = Uint8Array.from([0x0f, 0x00]);
  const out = new Uint8Array(headerSize + dataSize + extra.length + 2);
  out.set(fit.subarray(0, headerSize + dataSize));
  out.set(extra, headerSize + dataSize);
  const outView = new DataView(out.buffer);
  outView.setUint32(4, dataSize + extra.length, true);
  if (headerSize >= 14) outView.setUint16(12, CrcCalculator.calculateCRC(out, 0, 12), true);
  outView.setUint16(out.length - 2, CrcCalculator.calculateCRC(out, 0, out.length - 2), true);
  return out;
}

/**
 * A GPX of about `bytes` bytes (a long ride logged every second with elevation): one track
 * walked back and forth `step` degrees north, one point a second from `start`. For measuring.
 */
export function largeGpxFile(bytes: number, start = '2025-04-12T06:00:00.000Z'): Uint8Array {
  const head = `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="sinilill-tests" xmlns="http://www.topografix.com/GPX/1/1">
<trk><name>Long</name><type>cycling</type><trkseg>
`;
  const tail = '</trkseg></trk>\n</gpx>\n';
  const t0 = Date.parse(start);
  const lines: string[] = [];
  let size = head.length + tail.length;
  for (let i = 0; size < bytes; i++) {
    // A zigzag so the track neither ends far away nor is a straight line.
    const lat = LAT0 + (i % 2000) * 0.00005 * (Math.floor(i / 2000) % 2 === 0 ? 1 : -1) + (Math.floor(i / 2000) % 2 === 0 ? 0 : 0.1);
    const lon = LON0 + Math.sin(i / 50) * 0.0005;
    const line = `<trkpt lat="${lat.toFixed(7)}" lon="${lon.toFixed(7)}"><ele>${(30 + Math.sin(i / 300) * 10).toFixed(1)}</ele><time>${new Date(t0 + i * 1000).toISOString()}</time></trkpt>\n`;
    lines.push(line);
    size += line.length;
  }
  return new TextEncoder().encode(head + lines.join('') + tail);
}
