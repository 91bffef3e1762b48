/**
 * Reads one activity file (GPX, TCX or FIT) into proposed entries, as the watch reads it
 * (docs/decisions/0092): the device's own totals first, the track's length where the file has
 * none; a part per sport and per local day; planned routes and courses refused. Libraries:
 * @garmin/fitsdk (FIT), saxes (GPX and TCX, streamed: memory bounded by the points kept, not by the
 * file), TextDecoder (the XML's declared encoding), @turf/distance (geodesic length, per pair of
 * points, as @turf/length measures a line).
 */
import { createHash } from 'node:crypto';
import { Decoder, Stream, type RecordMesg, type SessionMesg } from '@garmin/fitsdk';
import { distance as turfDistance } from '@turf/distance';
import { SaxesParser, type SaxesTag } from 'saxes';
import { DomainError, localDate, type ActivityFileFormat, type ActivityType } from '@sinilill/domain';
import { mapActivityType } from './sport';

/** Largest activity file read, bytes (20 MiB: a day-long FIT with every sensor is a few MB). */
export const MAX_ACTIVITY_FILE_BYTES = 20 * 1024 * 1024;

/** Most points of the track kept for the map, per part. */
export const MAX_TRACK_POINTS = 500;

/** The zone an activity's day is judged in when the caller names none (spec §4: Estonian days). */
export const DEFAULT_ACTIVITY_TIME_ZONE = 'Europe/Tallinn';

/** One entry a file proposes: one sport on one local day. */
export interface ActivityPart {
  /** 0-based, in start order (parts without a time last). */
  index: number;
  /** The file's own sport name for this part (e.g. 'running', 'Biking', 'swimming', '9'), or null. */
  sport: string | null;
  /** A preset entry type from the sport, or null (the member chooses). */
  entryType: ActivityType | null;
  /** km, rounded to 0.01, > 0. */
  distanceKm: number;
  /** YYYY-MM-DD in the given zone; null when the file has no time at all (the member picks the day). */
  performedAt: string | null;
  /** ISO-8601 UTC of the part's first point (or its session's or lap's start), or null. */
  startedAt: string | null;
  /** The part's track as [longitude, latitude] degrees, thinned to at most MAX_TRACK_POINTS; may be empty (indoor). */
  track: [number, number][];
}

/** What a file proposes (nothing is stored until the member confirms). */
export interface ActivityFileProposal {
  format: ActivityFileFormat;
  /** 64 lower-case hex digits: SHA-256 of the file's bytes, the file's identity. */
  sha256: string;
  /** ≥ 1: one per sport (a multi-sport file) and per local day (an activity over midnight, a multi-day hike). */
  parts: ActivityPart[];
  /** km: the parts' sum (each rounded to 0.01). */
  distanceKm: number;
  /** The first part's day, or null. */
  performedAt: string | null;
  /** The first part's start, or null. */
  startedAt: string | null;
  /** The first part's entry type. */
  entryType: ActivityType | null;
  /** The first part's track. */
  track: [number, number][];
}

const EXTENSIONS: Readonly<Record<string, ActivityFileFormat>> = { gpx: 'gpx', tcx: 'tcx', fit: 'fit' };

/**
 * Reads an activity file by its content (FIT: ".FIT" at bytes 8..11; XML: root <gpx> or
 * <TrainingCenterDatabase>); the file name's extension, when it is .gpx, .tcx or .fit, must agree.
 * Synchronous and pure.
 * @throws DomainError ACTIVITY_FILE_TOO_LARGE (over MAX_ACTIVITY_FILE_BYTES),
 *   ACTIVITY_FILE_NOT_SUPPORTED (another format, or an extension that does not match),
 *   ACTIVITY_FILE_UNREADABLE (damaged: bad FIT CRC, truncated or malformed XML, an unknown declared
 *   encoding; a FIT whose decoder fails before any session or record was read),
 *   ACTIVITY_FILE_IS_ROUTE (a planned route or course: GPX <rte> without a track, TCX <Course>
 *   without an activity, FIT file type course),
 *   ACTIVITY_FILE_EMPTY (no bytes, or no distance to add).
 * @param timeZone the IANA zone of the days proposed (the edition's `timeZone`): default
 *   Europe/Tallinn, the zone of every edition so far.
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
  const collector = new Collector(timeZone);
  if (format === 'fit') readFit(bytes, collector);
  else readXml(bytes, format, collector);
  const parts = collector.parts();
  if (parts.length === 0) {
    if (collector.routes > 0) throw new DomainError('ACTIVITY_FILE_IS_ROUTE', `${collector.routes} planned route(s) or course(s), no activity`);
    throw new DomainError('ACTIVITY_FILE_EMPTY', 'no distance');
  }
  const first = parts[0]!;
  return {
    format,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    parts,
    distanceKm: round2(parts.reduce((sum, part) => sum + part.distanceKm, 0)),
    performedAt: first.performedAt,
    startedAt: first.startedAt,
    entryType: first.entryType,
    track: first.track,
  };
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
const round2 = (km: number) => Math.round(km * 100) / 100;

// ---------------------------------------------------------------------------------------------
// Collecting: groups (a GPX <trk>, a TCX <Activity>, a FIT session) of points, bucketed by day.

/**
 * Keeps every k-th point, doubling k whenever 2·MAX_TRACK_POINTS are held, and the last point:
 * memory stays bounded however long the track, and the kept points are evenly spread over it.
 */
class Thinner {
  private kept: [number, number][] = [];
  private stride = 1;
  private seen = 0;
  private last: [number, number] | null = null;

  push(point: [number, number]): void {
    if (this.seen++ % this.stride === 0) {
      this.kept.push(point);
      this.last = null;
      if (this.kept.length >= 2 * MAX_TRACK_POINTS) {
        this.kept = this.kept.filter((_, i) => i % 2 === 0);
        this.stride *= 2;
      }
    } else this.last = point;
  }

  points(): [number, number][] {
    return this.last === null ? this.kept : [...this.kept, this.last];
  }
}

/** A group's points on one local day (day null: points without a time). */
interface Bucket {
  day: string | null;
  /** Geodesic metres of the segments' steps ending on this day. */
  trackMetres: number;
  /** Metres of the points' own cumulative distance (TCX DistanceMeters, FIT record distance) gained on this day. */
  recordedMetres: number;
  /** Epoch ms of the first timed point, or null. */
  firstMs: number | null;
  count: number;
  track: Thinner;
}

/** A GPX <trk>, a TCX <Activity> or a FIT session. */
interface Group {
  sport: string | null;
  subSport: string | null;
  /** The device's own total, metres (FIT session total_distance; TCX laps or last cumulative distance), or null. */
  deviceMetres: number | null;
  /** Epoch ms the file says the group started (FIT session start_time, TCX lap StartTime), or null. */
  startMs: number | null;
  /** Dropped at the end (a FIT transition: not a sport of the event). */
  dropped: boolean;
  buckets: Map<string, Bucket>;
  /** The bucket key of the last timed point: untimed points between timed ones stay on its day. */
  lastDay: string | null;
  previous: [number, number] | null;
  previousRecorded: number | null;
  maxRecorded: number | null;
}

/** Gathers a file's groups and points as a reader finds them, then makes them into parts. */
class Collector {
  readonly groups: Group[] = [];
  /** GPX <rte> and TCX <Course> seen (planned, never counted). */
  routes = 0;
  private readonly daysBySlot = new Map<number, string>();

  constructor(private readonly timeZone: string) {}

  group(sport: string | null, subSport: string | null = null): Group {
    const group: Group = {
      sport, subSport, deviceMetres: null, startMs: null, dropped: false, buckets: new Map(), lastDay: null,
      previous: null, previousRecorded: null, maxRecorded: null,
    };
    this.groups.push(group);
    return group;
  }

  /** A break in the track (a GPX <trkseg>, a TCX <Track>): no length between the two sides. */
  segment(group: Group): void {
    group.previous = null;
  }

  /** One point: position in degrees (or nulls), epoch ms (or null), cumulative metres of the device (or null). */
  point(group: Group, lon: number | null, lat: number | null, ms: number | null, recorded: number | null): void {
    const day = ms !== null ? this.dayOf(ms) : group.lastDay;
    if (ms !== null) group.lastDay = day;
    const key = day ?? '';
    let bucket = group.buckets.get(key);
    if (!bucket) {
      bucket = { day, trackMetres: 0, recordedMetres: 0, firstMs: null, count: 0, track: new Thinner() };
      group.buckets.set(key, bucket);
    }
    bucket.count++;
    if (ms !== null && (bucket.firstMs === null || ms < bucket.firstMs)) bucket.firstMs = ms;
    if (lon !== null && lat !== null && Number.isFinite(lon) && Number.isFinite(lat) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180) {
      const here: [number, number] = [lon, lat];
      if (group.previous !== null) bucket.trackMetres += turfDistance(group.previous, here, { units: 'meters' });
      group.previous = here;
      bucket.track.push(here);
    }
    if (recorded !== null && Number.isFinite(recorded)) {
      if (group.previousRecorded !== null && recorded > group.previousRecorded) bucket.recordedMetres += recorded - group.previousRecorded;
      group.previousRecorded = recorded;
      if (group.maxRecorded === null || recorded > group.maxRecorded) group.maxRecorded = recorded;
    }
  }

  /** The local day of an instant; cached by quarter hour (every zone's offset is a multiple of 15 minutes). */
  private dayOf(ms: number): string {
    const slot = Math.floor(ms / 900_000);
    let day = this.daysBySlot.get(slot);
    if (day === undefined) {
      day = localDate(new Date(ms).toISOString(), this.timeZone);
      this.daysBySlot.set(slot, day);
    }
    return day;
  }

  /**
   * The parts: each group's total (device first, else the cumulative distance gained, else the
   * track's length) apportioned to its days by the track's share on each (or the cumulative
   * distance's, or the points'), then the groups of one sport on one day joined, in start order.
   */
  parts(): ActivityPart[] {
    interface Piece { group: Group; day: string | null; firstMs: number | null; metres: number; track: [number, number][] }
    const pieces: Piece[] = [];
    for (const group of this.groups) {
      if (group.dropped) continue;
      let buckets = [...group.buckets.values()];
      // Points without a time before the first timed one belong to the first timed day.
      const untimed = buckets.find((bucket) => bucket.day === null);
      const dated = buckets.filter((bucket) => bucket.day !== null).sort((a, b) => (a.firstMs ?? 0) - (b.firstMs ?? 0));
      if (untimed && dated.length > 0) {
        const into = dated[0]!;
        into.trackMetres += untimed.trackMetres;
        into.recordedMetres += untimed.recordedMetres;
        into.count += untimed.count;
        for (const point of untimed.track.points()) into.track.push(point);
        buckets = dated;
      } else if (dated.length > 0) buckets = dated;
      if (buckets.length === 0 && group.deviceMetres !== null && group.deviceMetres > 0) {
        // An indoor activity with a total and no points (a TCX lap, a FIT session without records).
        buckets = [{ day: null, trackMetres: 0, recordedMetres: 0, firstMs: null, count: 1, track: new Thinner() }];
      }
      if (buckets.length === 0) continue;
      // A file that gives its start but no point times (a TCX lap's StartTime over untimed trackpoints).
      if (buckets.length === 1 && buckets[0]!.day === null && group.startMs !== null) {
        buckets[0]!.day = this.dayOf(group.startMs);
        buckets[0]!.firstMs = group.startMs;
      }
      const track = sum(buckets, (b) => b.trackMetres);
      const recorded = sum(buckets, (b) => b.recordedMetres);
      const total = group.deviceMetres !== null && group.deviceMetres > 0 ? group.deviceMetres : recorded > 0 ? recorded : track;
      if (!(total > 0)) continue;
      const share = (b: Bucket) => (track > 0 ? b.trackMetres / track : recorded > 0 ? b.recordedMetres / recorded : b.count / sum(buckets, (x) => x.count));
      const groupPieces = buckets.map((b) => ({ group, day: b.day, firstMs: b.firstMs ?? group.startMs, metres: total * share(b), track: b.track.points() }));
      // A day holding under 5 m (a run started at 23:59:58) is no entry of its own: its metres go to the group's largest day.
      const largest = groupPieces.reduce((a, b) => (b.metres > a.metres ? b : a));
      for (const piece of groupPieces) {
        if (piece !== largest && piece.metres < 5) {
          largest.metres += piece.metres;
          piece.metres = 0;
        }
      }
      pieces.push(...groupPieces.filter((piece) => piece.metres > 0));
    }
    // One sport on one day is one entry (a duathlon's two runs, two <trk> of one walk).
    const joined = new Map<string, { sport: string | null; entryType: ActivityType | null; day: string | null; firstMs: number | null; metres: number; track: [number, number][] }>();
    for (const piece of pieces) {
      const entryType = mapActivityType(piece.group.sport, piece.group.subSport);
      const key = `${entryType ?? `sport:${piece.group.sport ?? ''}`}|${piece.day ?? ''}`;
      const part = joined.get(key);
      if (!part) joined.set(key, { sport: piece.group.sport, entryType, day: piece.day, firstMs: piece.firstMs, metres: piece.metres, track: [...piece.track] });
      else {
        part.metres += piece.metres;
        part.track.push(...piece.track);
        if (piece.firstMs !== null && (part.firstMs === null || piece.firstMs < part.firstMs)) part.firstMs = piece.firstMs;
      }
    }
    return [...joined.values()]
      .filter((part) => round2(part.metres / 1000) > 0)
      .sort((a, b) => (a.firstMs ?? Infinity) - (b.firstMs ?? Infinity))
      .map((part, index) => ({
        index,
        sport: part.sport,
        entryType: part.entryType,
        distanceKm: round2(part.metres / 1000),
        performedAt: part.day,
        startedAt: part.firstMs === null ? null : new Date(part.firstMs).toISOString(),
        track: thin(part.track, MAX_TRACK_POINTS),
      }));
  }
}

function sum<T>(items: readonly T[], of: (item: T) => number): number {
  let total = 0;
  for (const item of items) total += of(item);
  return total;
}

// ---------------------------------------------------------------------------------------------
// Formats

/** 'fit', 'gpx' or 'tcx' by content, or null for anything else. */
function formatOf(bytes: Uint8Array): ActivityFileFormat | null {
  if (bytes.byteLength >= 12 && String.fromCharCode(bytes[8]!, bytes[9]!, bytes[10]!, bytes[11]!) === '.FIT') return 'fit';
  const label = encodingOf(bytes);
  let head: string;
  try {
    head = new TextDecoder(label).decode(bytes.subarray(0, 4096));
  } catch {
    // An unknown declared encoding: the root's name is ASCII in every encoding a declaration can be read in.
    head = new TextDecoder('latin1').decode(bytes.subarray(0, 4096));
  }
  head = head.replace(/^\uFEFF/, '');
  if (!/^\s*</.test(head)) return null;
  // The root element: the first tag that is not a declaration, comment or doctype.
  const root = /<(?![?!])(?:[\w.-]+:)?([\w.-]+)/.exec(head)?.[1];
  if (root === 'gpx') return 'gpx';
  if (root === 'TrainingCenterDatabase') return 'tcx';
  return root === undefined ? 'gpx' /* a cut-off XML head: let the parser say it is damaged */ : null;
}

/**
 * The encoding of an XML file (XML 1.0 §4.3.3 and appendix F): a byte-order mark wins; else
 * UTF-16 told by its first '<'; else the declaration's `encoding` (read as ASCII); else UTF-8.
 */
function encodingOf(bytes: Uint8Array): string {
  const [a, b, c, d] = [bytes[0], bytes[1], bytes[2], bytes[3]];
  if (a === 0xef && b === 0xbb && c === 0xbf) return 'utf-8';
  if (a === 0xff && b === 0xfe) return 'utf-16le';
  if (a === 0xfe && b === 0xff) return 'utf-16be';
  if (a === 0x3c && b === 0x00 && c === 0x3f && d === 0x00) return 'utf-16le';
  if (a === 0x00 && b === 0x3c && c === 0x00 && d === 0x3f) return 'utf-16be';
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 512));
  const declared = /^\s*<\?xml\b[^>]*?\bencoding\s*=\s*["']([^"']+)["']/.exec(head)?.[1];
  // A declaration of UTF-16 over ASCII-compatible bytes cannot be true; the bytes say UTF-8.
  if (declared === undefined || /^utf-?16/i.test(declared)) return 'utf-8';
  return declared.trim();
}

/** Characters decoded and parsed per step: the file's text is never held whole. */
const CHUNK_BYTES = 1 << 20;

const localName = (name: string) => {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
};

/**
 * GPX (1.0, 1.1) and TCX (v2), read by a strict streaming XML parser. GPX: each <trk> a group
 * (its <type> the sport), each <trkseg> a segment; <rte> counted as a route, never as km;
 * <metadata><time> is when the file was written, not when anyone moved: never used. TCX: each
 * <Activity> a group (its Sport attribute the sport; also inside a MultiSportSession), its total
 * the larger of its laps' DistanceMeters sum and its last trackpoint's cumulative DistanceMeters
 * (Suunto Movescount writes laps that end before the last trackpoints); <Course> counted as a route.
 */
function readXml(bytes: Uint8Array, format: 'gpx' | 'tcx', collector: Collector): void {
  const label = encodingOf(bytes);
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(label);
  } catch {
    throw new DomainError('ACTIVITY_FILE_UNREADABLE', `unknown encoding ${JSON.stringify(label)}`);
  }
  const parser = new SaxesParser({ position: false });
  const handler = format === 'gpx' ? gpxHandler(collector) : tcxHandler(collector);
  const path: string[] = [];
  let text: string | null = null;
  let rootSeen = false;
  parser.on('opentag', (tag: SaxesTag) => {
    const name = localName(tag.name);
    if (!rootSeen) {
      rootSeen = true;
      if (name !== (format === 'gpx' ? 'gpx' : 'TrainingCenterDatabase')) throw new DomainError('ACTIVITY_FILE_NOT_SUPPORTED', `root <${name}>`);
    }
    const parent = path.length > 0 ? path[path.length - 1]! : '';
    path.push(name);
    // Without xmlns the parser gives attributes as plain strings.
    if (handler.open(name, parent, tag.attributes as Record<string, string>)) text = '';
  });
  parser.on('text', (chunk) => {
    if (text !== null) text += chunk;
  });
  parser.on('cdata', (chunk) => {
    if (text !== null) text += chunk;
  });
  parser.on('closetag', () => {
    const name = path.pop()!;
    const parent = path.length > 0 ? path[path.length - 1]! : '';
    handler.close(name, parent, text);
    text = null;
  });
  try {
    let started = false;
    for (let offset = 0; offset < bytes.byteLength; offset += CHUNK_BYTES) {
      let chunk = decoder.decode(bytes.subarray(offset, offset + CHUNK_BYTES), { stream: true });
      // Polar Flow's TCX export starts with a blank line before its XML declaration, which strict
      // XML refuses; nothing is lost by dropping white space before the first '<'.
      if (!started) {
        chunk = chunk.replace(/^\s+/, '');
        started = chunk.length > 0;
      }
      parser.write(chunk);
    }
    parser.write(decoder.decode());
    parser.close();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError('ACTIVITY_FILE_UNREADABLE', `malformed XML: ${(error as Error).message}`);
  }
  if (!rootSeen) throw new DomainError('ACTIVITY_FILE_UNREADABLE', 'no root element');
}

interface XmlHandler {
  /** An element opened; true when its text is wanted at close. */
  open(name: string, parent: string, attributes: Record<string, string>): boolean;
  close(name: string, parent: string, text: string | null): void;
}

function timeOf(text: string | null): number | null {
  if (text === null) return null;
  const ms = Date.parse(text.trim());
  return Number.isNaN(ms) ? null : ms;
}

function numberOf(text: string | null | undefined): number | null {
  if (text === null || text === undefined || text.trim() === '') return null;
  const value = Number(text.trim());
  return Number.isFinite(value) ? value : null;
}

function gpxHandler(collector: Collector): XmlHandler {
  let group: Group | null = null;
  let point: { lon: number | null; lat: number | null; ms: number | null } | null = null;
  return {
    open(name, parent, attributes) {
      if (name === 'trk' && parent === 'gpx') group = collector.group(null);
      else if (name === 'rte' && parent === 'gpx') collector.routes++;
      else if (group !== null) {
        if (name === 'trkseg' && parent === 'trk') collector.segment(group);
        else if (name === 'trkpt' && parent === 'trkseg') point = { lon: numberOf(attributes.lon), lat: numberOf(attributes.lat), ms: null };
        else if (name === 'type' && parent === 'trk') return true;
        else if (name === 'time' && parent === 'trkpt') return true;
      }
      return false;
    },
    close(name, parent, text) {
      if (group === null) return;
      if (name === 'type' && parent === 'trk') group.sport = text?.trim() || null;
      else if (name === 'time' && parent === 'trkpt' && point !== null) point.ms = timeOf(text);
      else if (name === 'trkpt' && point !== null) {
        collector.point(group, point.lon, point.lat, point.ms, null);
        point = null;
      } else if (name === 'trk') group = null;
    },
  };
}

function tcxHandler(collector: Collector): XmlHandler {
  let group: Group | null = null;
  let lapMetres: number | null = null;
  let point: { lon: number | null; lat: number | null; ms: number | null; recorded: number | null } | null = null;
  return {
    open(name, parent, attributes) {
      if (name === 'Activity') {
        group = collector.group(attributes.Sport ?? null);
        lapMetres = null;
      } else if (name === 'Course' && parent === 'Courses') collector.routes++;
      else if (group !== null) {
        if (name === 'Lap' && parent === 'Activity') {
          const start = timeOf(attributes.StartTime ?? null);
          if (start !== null && (group.startMs === null || start < group.startMs)) group.startMs = start;
        } else if (name === 'Track') collector.segment(group);
        else if (name === 'Trackpoint') point = { lon: null, lat: null, ms: null, recorded: null };
        else if (name === 'DistanceMeters' && (parent === 'Lap' || parent === 'Trackpoint')) return true;
        else if (name === 'Time' && parent === 'Trackpoint') return true;
        else if ((name === 'LatitudeDegrees' || name === 'LongitudeDegrees') && parent === 'Position') return true;
      }
      return false;
    },
    close(name, parent, text) {
      if (group === null) return;
      if (name === 'DistanceMeters' && parent === 'Lap') {
        const metres = numberOf(text);
        if (metres !== null) lapMetres = (lapMetres ?? 0) + metres;
      } else if (point !== null && name === 'DistanceMeters' && parent === 'Trackpoint') point.recorded = numberOf(text);
      else if (point !== null && name === 'Time') point.ms = timeOf(text);
      else if (point !== null && name === 'LatitudeDegrees') point.lat = numberOf(text);
      else if (point !== null && name === 'LongitudeDegrees') point.lon = numberOf(text);
      else if (name === 'Trackpoint' && point !== null) {
        collector.point(group, point.lon, point.lat, point.ms, point.recorded);
        point = null;
      } else if (name === 'Activity') {
        const last = group.maxRecorded;
        group.deviceMetres = lapMetres === null ? last : last === null ? lapMetres : Math.max(lapMetres, last);
        group = null;
      }
    },
  };
}

/** Semicircles (FIT positions) to degrees. */
const DEGREES_PER_SEMICIRCLE = 180 / 2 ** 31;

/**
 * FIT through @garmin/fitsdk. A decoder error keeps what was read before it (a Forerunner 255
 * triathlon throws on a record field after every session was read); a file whose size or CRC does
 * not hold is damaged (UNREADABLE), unless its header claims more bytes than it has (no CRC to
 * check) and sessions were read from it. Each session a group with its sport, sub-sport and total_distance; records go to the
 * session whose time they fall in; transitions are dropped (not a sport of the event). A file of
 * type course, or with course messages and no session, is a route.
 */
function readFit(bytes: Uint8Array, collector: Collector): void {
  const decoder = new Decoder(Stream.fromBuffer(bytes));
  const whole = decoder.checkIntegrity();
  // mergeHeartRates runs after the last message and would fail again on a broken file; heart rates are not read here.
  const { messages, errors } = decoder.read({ mergeHeartRates: false });
  const fileType = messages.fileIdMesgs?.[0]?.type;
  const sessions: SessionMesg[] = messages.sessionMesgs ?? [];
  const records: RecordMesg[] = messages.recordMesgs ?? [];
  if (fileType === 'course' || (sessions.length === 0 && (messages.courseMesgs?.length ?? 0) > 0)) {
    collector.routes++;
    return;
  }
  if (!whole) {
    // A CRC that can be checked and fails: bytes were changed, the file is damaged. A header whose
    // data size runs past the file's end (the Strava app for Android writes one) leaves no CRC to
    // check: such a file is read when the device's own summary, a session, was read from it.
    const declaredEnd = bytes[0]! + new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true) + 2;
    if (bytes.byteLength >= declaredEnd) throw new DomainError('ACTIVITY_FILE_UNREADABLE', 'FIT CRC does not match');
    if (sessions.length === 0) throw new DomainError('ACTIVITY_FILE_UNREADABLE', 'FIT shorter than its header says, and no session was read');
  }
  const usable = records.some((r) => typeof r.distance === 'number' || typeof r.positionLat === 'number');
  if (errors.length > 0 && sessions.length === 0 && !usable) throw new DomainError('ACTIVITY_FILE_UNREADABLE', String((errors[0] as Error).message ?? errors[0]));
  const msOf = (value: unknown) => (value instanceof Date && !Number.isNaN(value.getTime()) ? value.getTime() : null);
  const groups = sessions.map((session) => {
    const group = collector.group(typeof session.sport === 'string' ? session.sport : null, typeof session.subSport === 'string' ? session.subSport : null);
    group.deviceMetres = typeof session.totalDistance === 'number' ? session.totalDistance : null;
    group.startMs = msOf(session.startTime);
    group.dropped = session.sport === 'transition';
    const elapsed = typeof session.totalElapsedTime === 'number' ? session.totalElapsedTime * 1000 : null;
    const endMs = msOf(session.timestamp) ?? (group.startMs !== null && elapsed !== null ? group.startMs + elapsed : null);
    return { group, startMs: group.startMs, endMs };
  });
  if (groups.length === 0) {
    const sport = messages.sportMesgs?.[0]?.sport;
    const subSport = messages.sportMesgs?.[0]?.subSport;
    const group = collector.group(typeof sport === 'string' ? sport : null, typeof subSport === 'string' ? subSport : null);
    groups.push({ group, startMs: null, endMs: null });
  }
  const ordered = [...groups].sort((a, b) => (a.startMs ?? 0) - (b.startMs ?? 0));
  const groupAt = (ms: number | null) => {
    if (ms === null || ordered.length === 1) return ordered[0]!.group;
    const inside = ordered.find((g) => g.startMs !== null && g.endMs !== null && g.startMs <= ms && ms <= g.endMs);
    if (inside) return inside.group;
    const before = ordered.filter((g) => g.startMs !== null && g.startMs <= ms).at(-1);
    return (before ?? ordered[0]!).group;
  };
  // Records far outside every session are not of the activity (a broken file's tail decodes as a
  // record of 2085): with the sessions' times known, only records within 5 minutes of them count.
  const starts = groups.map((g) => g.startMs).filter((ms): ms is number => ms !== null);
  const ends = groups.map((g) => g.endMs).filter((ms): ms is number => ms !== null);
  const from = starts.length > 0 ? Math.min(...starts) - 300_000 : -Infinity;
  const to = ends.length > 0 ? Math.max(...ends) + 300_000 : Infinity;
  for (const record of records) {
    const ms = msOf(record.timestamp);
    if (ms !== null && (ms < from || ms > to)) continue;
    const lat = typeof record.positionLat === 'number' ? record.positionLat * DEGREES_PER_SEMICIRCLE : null;
    const lon = typeof record.positionLong === 'number' ? record.positionLong * DEGREES_PER_SEMICIRCLE : null;
    collector.point(groupAt(ms), lon, lat, ms, typeof record.distance === 'number' ? record.distance : null);
  }
}
