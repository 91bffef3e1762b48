/**
 * Reads one activity file (GPX, TCX or FIT) into a proposed entry. Libraries: @garmin/fitsdk (FIT),
 * @xmldom/xmldom + @tmcw/togeojson (GPX, TCX), @turf/length (geodesic length of the track).
 */
import { createHash } from 'node:crypto';
import { Decoder, Stream } from '@garmin/fitsdk';
import { gpx, tcx } from '@tmcw/togeojson';
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { length as turfLength } from '@turf/length';
import { lineString, multiLineString } from '@turf/helpers';
import type { FeatureCollection, Position } from 'geojson';
import { DomainError, localDate, type ActivityFileFormat, type ActivityType } from '@sinilill/domain';
import { mapActivityType } from './sport';

/** Largest activity file read, bytes (20 MB: a day-long FIT with every sensor is a few MB). */
export const MAX_ACTIVITY_FILE_BYTES = 20 * 1024 * 1024;

/** Most points of the track kept for the map. */
export const MAX_TRACK_POINTS = 500;

/** What a file proposes (nothing is stored until the member confirms). */
export interface ActivityFileProposal {
  format: ActivityFileFormat;
  /** 64 lower-case hex digits: SHA-256 of the file's bytes, the file's identity. */
  sha256: string;
  /**
   * km, rounded to 0.01: the file's own total distance when it has one (FIT session
   * total_distance, the sum of TCX laps' DistanceMeters), else the geodesic length of its track.
   */
  distanceKm: number;
  /** YYYY-MM-DD of the activity's start in Europe/Tallinn (the edition's time zone). */
  performedAt: string;
  /** ISO-8601 UTC of the activity's start. */
  startedAt: string;
  /** A preset entry type from the file's sport, or null when it has none that maps. */
  entryType: ActivityType | null;
  /** The track as [longitude, latitude] degrees, thinned to at most MAX_TRACK_POINTS; may be empty (indoor). */
  track: [number, number][];
}

const EXTENSIONS: Readonly<Record<string, ActivityFileFormat>> = { gpx: 'gpx', tcx: 'tcx', fit: 'fit' };

/** What a reader of one format finds, before rounding and checks. */
interface Found {
  /** Metres of the file's own total, or null. */
  totalMetres: number | null;
  /** Track segments of [lon, lat]. */
  segments: [number, number][][];
  start: Date | null;
  sport: string | null;
  subSport: string | null;
}

/** The zone an activity's day is judged in when the caller names none (spec §4: Estonian days). */
export const DEFAULT_ACTIVITY_TIME_ZONE = 'Europe/Tallinn';

/**
 * Reads an activity file by its content (FIT: ".FIT" at bytes 8..11; XML: root <gpx> or
 * <TrainingCenterDatabase>); the file name's extension, when it is .gpx, .tcx or .fit, must agree.
 * @throws DomainError ACTIVITY_FILE_TOO_LARGE (over MAX_ACTIVITY_FILE_BYTES),
 *   ACTIVITY_FILE_NOT_SUPPORTED (another format, or an extension that does not match),
 *   ACTIVITY_FILE_UNREADABLE (damaged: bad CRC, truncated, malformed XML, no start time),
 *   ACTIVITY_FILE_EMPTY (no bytes, or no distance to add).
 * @param timeZone the IANA zone of the day proposed (the edition's `timeZone`; the caller
 *   passes its edition's): default Europe/Tallinn, the zone of every edition so far.
 */
export function readActivityFile(bytes: Uint8Array, fileName: string, timeZone = DEFAULT_ACTIVITY_TIME_ZONE): ActivityFileProposal {
  if (bytes.byteLength > MAX_ACTIVITY_FILE_BYTES) throw new DomainError('ACTIVITY_FILE_TOO_LARGE', `${bytes.byteLength} bytes`);
  if (bytes.byteLength === 0) throw new DomainError('ACTIVITY_FILE_EMPTY', 'no bytes');
  const extension = /\.([a-z0-9]+)$/i.exec(fileName.trim())?.[1]?.toLowerCase();
  const named = extension !== undefined ? EXTENSIONS[extension] : undefined;
  if (extension !== undefined && named === undefined) throw new DomainError('ACTIVITY_FILE_NOT_SUPPORTED', `.${extension}`);
  const format = formatOf(bytes);
  if (format === null) throw new DomainError('ACTIVITY_FILE_NOT_SUPPORTED', 'neither FIT nor GPX nor TCX');
  if (named !== undefined && named !== format) throw new DomainError('ACTIVITY_FILE_NOT_SUPPORTED', `a ${format} file named .${extension}`);
  const found = format === 'fit' ? readFit(bytes) : readXml(bytes, format);
  const lines = found.segments.filter((segment) => segment.length >= 2);
  const trackKm = lines.length === 0 ? 0 : turfLength(lines.length === 1 ? lineString(lines[0]!) : multiLineString(lines), { units: 'kilometers' });
  const km = found.totalMetres !== null && found.totalMetres > 0 ? found.totalMetres / 1000 : trackKm;
  const distanceKm = Math.round(km * 100) / 100;
  if (!(distanceKm > 0)) throw new DomainError('ACTIVITY_FILE_EMPTY', 'no distance');
  if (found.start === null || Number.isNaN(found.start.getTime())) throw new DomainError('ACTIVITY_FILE_UNREADABLE', 'no start time');
  const startedAt = found.start.toISOString();
  return {
    format,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    distanceKm,
    performedAt: localDate(startedAt, timeZone),
    startedAt,
    entryType: mapActivityType(found.sport, found.subSport),
    track: thin(found.segments.flat(), MAX_TRACK_POINTS),
  };
}

/** 'fit', 'gpx' or 'tcx' by content, or null for anything else. */
function formatOf(bytes: Uint8Array): ActivityFileFormat | null {
  if (bytes.byteLength >= 12 && String.fromCharCode(bytes[8]!, bytes[9]!, bytes[10]!, bytes[11]!) === '.FIT') return 'fit';
  const head = new TextDecoder('utf-8').decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, '');
  if (!/^\s*</.test(head)) return null;
  // The root element: the first tag that is not a declaration, comment or doctype.
  const root = /<(?![?!])(?:[\w.-]+:)?([\w.-]+)/.exec(head)?.[1];
  if (root === 'gpx') return 'gpx';
  if (root === 'TrainingCenterDatabase') return 'tcx';
  return root === undefined ? 'gpx' /* a cut-off XML head: let the parser say it is damaged */ : null;
}

/** Semicircles (FIT positions) to degrees. */
const DEGREES_PER_SEMICIRCLE = 180 / 2 ** 31;

function readFit(bytes: Uint8Array): Found {
  const stream = Stream.fromBuffer(bytes);
  const decoder = new Decoder(stream);
  if (!decoder.checkIntegrity()) throw new DomainError('ACTIVITY_FILE_UNREADABLE', 'FIT size or CRC does not match');
  const { messages, errors } = decoder.read();
  if (errors.length > 0) throw new DomainError('ACTIVITY_FILE_UNREADABLE', errors[0]!.message);
  const sessions = messages.sessionMesgs ?? [];
  const records = messages.recordMesgs ?? [];
  const segment: [number, number][] = [];
  for (const record of records) {
    const lat = record.positionLat;
    const lon = record.positionLong;
    if (typeof lat === 'number' && typeof lon === 'number') segment.push([lon * DEGREES_PER_SEMICIRCLE, lat * DEGREES_PER_SEMICIRCLE]);
  }
  const totals = sessions.map((session) => session.totalDistance).filter((metres): metres is number => typeof metres === 'number');
  const lastRecordDistance = records.map((record) => record.distance).filter((metres): metres is number => typeof metres === 'number').at(-1);
  const first = sessions[0];
  const start = first?.startTime ?? records.find((record) => record.timestamp)?.timestamp ?? messages.activityMesgs?.[0]?.timestamp ?? null;
  return {
    totalMetres: totals.length > 0 ? totals.reduce((a, b) => a + b, 0) : (lastRecordDistance ?? null),
    segments: [segment],
    start: start instanceof Date ? start : null,
    sport: typeof first?.sport === 'string' ? first.sport : (typeof messages.sportMesgs?.[0]?.sport === 'string' ? messages.sportMesgs[0].sport : null),
    subSport: typeof first?.subSport === 'string' ? first.subSport : null,
  };
}

function readXml(bytes: Uint8Array, format: 'gpx' | 'tcx'): Found {
  let document: Document;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    document = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new Error(message);
      },
    }).parseFromString(text, 'text/xml');
  } catch (error) {
    throw new DomainError('ACTIVITY_FILE_UNREADABLE', `malformed XML: ${(error as Error).message}`);
  }
  const rootName = document.documentElement?.localName;
  if (rootName !== (format === 'gpx' ? 'gpx' : 'TrainingCenterDatabase')) throw new DomainError('ACTIVITY_FILE_NOT_SUPPORTED', `root <${String(rootName)}>`);
  const collection: FeatureCollection = format === 'gpx' ? gpx(document) : tcx(document);
  const segments: [number, number][][] = [];
  const firstTimes: string[] = [];
  let sport: string | null = null;
  for (const feature of collection.features) {
    const geometry = feature.geometry;
    const lines: Position[][] = geometry?.type === 'LineString' ? [geometry.coordinates] : geometry?.type === 'MultiLineString' ? geometry.coordinates : [];
    for (const line of lines) segments.push(line.filter(validPosition).map((p) => [p[0]!, p[1]!]));
    const times = (feature.properties?.coordinateProperties as { times?: unknown } | undefined)?.times;
    const first = Array.isArray(times) ? (Array.isArray(times[0]) ? (times[0] as unknown[])[0] : times[0]) : undefined;
    if (typeof first === 'string') firstTimes.push(first);
    if (sport === null && typeof feature.properties?.type === 'string') sport = feature.properties.type;
  }
  let totalMetres: number | null = null;
  let start: Date | null = firstTimes.length > 0 ? new Date(firstTimes.sort()[0]!) : null;
  if (format === 'tcx') {
    const laps = Array.from(document.getElementsByTagNameNS('*', 'Lap'));
    const metres = laps.map((lap) => Number(childText(lap, 'DistanceMeters'))).filter((value) => Number.isFinite(value));
    totalMetres = metres.length > 0 ? metres.reduce((a, b) => a + b, 0) : null;
    const activity = document.getElementsByTagNameNS('*', 'Activity')[0];
    sport = activity?.getAttribute('Sport') ?? null;
    const lapStart = laps[0]?.getAttribute('StartTime');
    if (start === null && lapStart) start = new Date(lapStart);
  } else if (start === null) {
    const time = document.getElementsByTagNameNS('*', 'metadata')[0];
    const text = time ? childText(time, 'time') : null;
    if (text) start = new Date(text);
  }
  return { totalMetres, segments, start, sport, subSport: null };
}

function validPosition(position: Position): boolean {
  const [lon, lat] = position;
  return typeof lon === 'number' && typeof lat === 'number' && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
}

function childText(element: Element, localName: string): string | null {
  for (let i = 0; i < element.childNodes.length; i++) {
    const child = element.childNodes[i];
    if (child && (child as Element).localName === localName) return child.textContent?.trim() ?? null;
  }
  return null;
}

/** At most `max` points, evenly spaced over the track, first and last kept. */
export function thin(points: readonly [number, number][], max: number): [number, number][] {
  if (points.length <= max) return points.map((p) => [round6(p[0]), round6(p[1])]);
  const step = (points.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => {
    const p = points[Math.round(i * step)]!;
    return [round6(p[0]), round6(p[1])];
  });
}

/** Degrees to 6 decimals (about 0.1 m): enough for a small map, a sixth of the JSON. */
const round6 = (degrees: number) => Math.round(degrees * 1e6) / 1e6;
