/**
 * Activity files made for tests (unit, integration and browser): a GPX and a TCX as text, a FIT
 * through the FIT SDK's own Encoder. Each walks `points` steps of about 100 m north from Tallinn's
 * Town Hall Square, one point a minute from `start`. For tests only: import
 * '@sinilill/activity-files/testing'.
 */
import { Encoder, Profile, type FileIdMesg, type RecordMesg, type SessionMesg } from '@garmin/fitsdk';

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
