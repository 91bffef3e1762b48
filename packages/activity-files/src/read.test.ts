import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DomainError } from '@sinilill/domain';
import { MAX_ACTIVITY_FILE_BYTES, MAX_TRACK_POINTS, readActivityFile } from './read';
import { CrcCalculator, Encoder, Profile, type FileIdMesg } from '@garmin/fitsdk';
import { gpx as togeojsonGpx } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import { length as turfLength } from '@turf/length';
import { fitFile, gpxFile, largeGpxFile, multiSportFitFile, tcxFile, withDecoderErrorAtEnd } from './testing';

/** 21:30 UTC on 9 April is 00:30 on 10 April in Tallinn (UTC+3). */
const lateEvening = { start: '2025-04-09T21:30:00.000Z', points: 11 };

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  throw new Error('no DomainError');
}

describe('readActivityFile', () => {
  it('reads a GPX track: geodesic length, the day in Tallinn, the sport', () => {
    const proposal = readActivityFile(gpxFile(lateEvening), 'morning.gpx');
    expect(proposal).toMatchObject({ format: 'gpx', distanceKm: 1, performedAt: '2025-04-10', startedAt: '2025-04-09T21:30:00.000Z', entryType: 'OUTDOOR_RUN' });
    expect(proposal.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(proposal.track).toHaveLength(11);
    expect(proposal.track[0]).toEqual([24.7454, 59.437]);
  });

  it('proposes no type for a GPX without one', () => {
    expect(readActivityFile(gpxFile(lateEvening, null), 'x.gpx').entryType).toBeNull();
  });

  it("reads a TCX: the laps' own distance wins over the track's length", () => {
    expect(readActivityFile(tcxFile(lateEvening, 'Biking', 1234.5), 'ride.TCX')).toMatchObject({ format: 'tcx', distanceKm: 1.23, performedAt: '2025-04-10', entryType: 'OUTDOOR_CYCLE' });
  });

  it("reads a FIT made by the SDK's encoder: the session's total distance, sport and sub-sport", () => {
    const proposal = readActivityFile(fitFile(lateEvening, 'running', 'treadmill', 5432.1), 'watch.fit');
    expect(proposal).toMatchObject({ format: 'fit', distanceKm: 5.43, performedAt: '2025-04-10', entryType: 'INDOOR_RUN' });
    expect(proposal.track[10]![1]).toBeCloseTo(59.446, 5);
  });

  it("measures a FIT's track when it has no total of its own", () => {
    expect(readActivityFile(fitFile(lateEvening, 'cycling', 'generic', null), 'watch.fit')).toMatchObject({ distanceKm: 1, entryType: 'OUTDOOR_CYCLE' });
  });

  it('detects the format by content, and the same bytes give the same hash', () => {
    const bytes = gpxFile(lateEvening);
    expect(readActivityFile(bytes, 'activity').format).toBe('gpx');
    expect(readActivityFile(bytes, 'a.gpx').sha256).toBe(readActivityFile(bytes, 'b.gpx').sha256);
    expect(readActivityFile(gpxFile({ ...lateEvening, points: 12 }), 'a.gpx').sha256).not.toBe(readActivityFile(bytes, 'a.gpx').sha256);
  });

  it(`keeps at most ${MAX_TRACK_POINTS} points of a long track, first and last among them`, () => {
    // 2001 points a minute apart run over two local days: a part each, each thinned.
    const proposal = readActivityFile(gpxFile({ start: lateEvening.start, points: 2001, step: 0.00001 }), 'long.gpx');
    expect(proposal.parts.map((part) => part.track.length)).toEqual([MAX_TRACK_POINTS, MAX_TRACK_POINTS]);
    expect(proposal.track).toBe(proposal.parts[0]!.track);
    expect(proposal.parts[0]!.track[0]).toEqual([24.7454, 59.437]);
    expect(proposal.parts[1]!.track.at(-1)![1]).toBeCloseTo(59.437 + 2000 * 0.00001, 6);
  });

  it('refuses what it cannot read, with a catalogue code each', () => {
    const fit = fitFile(lateEvening);
    const flipped = fit.slice();
    flipped[40] = flipped[40]! ^ 0xff;
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    const gpx = gpxFile(lateEvening);
    expect(codeOf(() => readActivityFile(new Uint8Array(0), 'a.gpx'))).toBe('ACTIVITY_FILE_EMPTY');
    expect(codeOf(() => readActivityFile(fit.subarray(0, fit.length - 30), 'a.fit'))).toBe('ACTIVITY_FILE_UNREADABLE');
    expect(codeOf(() => readActivityFile(flipped, 'a.fit'))).toBe('ACTIVITY_FILE_UNREADABLE');
    expect(codeOf(() => readActivityFile(gpx.subarray(0, gpx.length - 40), 'a.gpx'))).toBe('ACTIVITY_FILE_UNREADABLE');
    expect(codeOf(() => readActivityFile(png, 'a.png'))).toBe('ACTIVITY_FILE_NOT_SUPPORTED');
    expect(codeOf(() => readActivityFile(png, 'a.gpx'))).toBe('ACTIVITY_FILE_NOT_SUPPORTED');
    expect(codeOf(() => readActivityFile(fit, 'a.gpx'))).toBe('ACTIVITY_FILE_NOT_SUPPORTED');
    expect(codeOf(() => readActivityFile(new TextEncoder().encode('<kml xmlns="http://www.opengis.net/kml/2.2"/>'), 'a.kml'))).toBe('ACTIVITY_FILE_NOT_SUPPORTED');
    expect(codeOf(() => readActivityFile(new TextEncoder().encode('<kml/>'), 'a'))).toBe('ACTIVITY_FILE_NOT_SUPPORTED');
    expect(codeOf(() => readActivityFile(gpxFile({ ...lateEvening, points: 1 }), 'a.gpx'))).toBe('ACTIVITY_FILE_EMPTY');
    expect(codeOf(() => readActivityFile(new Uint8Array(MAX_ACTIVITY_FILE_BYTES + 1), 'a.fit'))).toBe('ACTIVITY_FILE_TOO_LARGE');
  });

  it('gives every part of a one-sport, one-day file the same values as the proposal', () => {
    const proposal = readActivityFile(gpxFile(lateEvening), 'morning.gpx');
    expect(proposal.parts).toEqual([
      { index: 0, sport: 'running', entryType: 'OUTDOOR_RUN', distanceKm: 1, performedAt: '2025-04-10', startedAt: '2025-04-09T21:30:00.000Z', track: proposal.track },
    ]);
  });
});

const xml = (text: string) => new TextEncoder().encode(text);
const GPX_OPEN = '<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">';
/** `n` points 0.0009° (about 100 m) apart going north from Tallinn, optionally a minute apart from `start`. */
function points(tag: 'trkpt' | 'rtept', n: number, start: string | null, lat0 = 59.437): string {
  return Array.from({ length: n }, (_, i) => {
    const time = start === null ? '' : `<time>${new Date(Date.parse(start) + i * 60_000).toISOString()}</time>`;
    return `<${tag} lat="${(lat0 + i * 0.0009).toFixed(6)}" lon="24.745400">${time}</${tag}>`;
  }).join('');
}

describe('readActivityFile: files read as the watch reads them', () => {
  it("TCX: the last trackpoint's cumulative distance wins when it runs past the laps' sum (Suunto Movescount)", () => {
    const trackpoints = Array.from({ length: 30 }, (_, i) => `<Trackpoint><Time>${new Date(Date.parse('2025-04-12T06:00:00Z') + i * 60_000).toISOString()}</Time><DistanceMeters>${((i * 2920) / 29).toFixed(1)}</DistanceMeters></Trackpoint>`);
    const file = xml(`<?xml version="1.0" encoding="UTF-8"?>
<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities><Activity Sport="Running"><Id>2025-04-12T06:00:00Z</Id>
<Lap StartTime="2025-04-12T06:00:00Z"><DistanceMeters>1000</DistanceMeters><Track>${trackpoints.slice(0, 10).join('')}</Track></Lap>
<Lap StartTime="2025-04-12T06:10:00Z"><DistanceMeters>1000</DistanceMeters><Track>${trackpoints.slice(10).join('')}</Track></Lap>
</Activity></Activities></TrainingCenterDatabase>`);
    expect(readActivityFile(file, 'movescount.tcx')).toMatchObject({ distanceKm: 2.92, performedAt: '2025-04-12', entryType: 'OUTDOOR_RUN' });
  });

  const triathlon = [
    { sport: 'swimming', subSport: 'openWater', start: '2025-04-12T05:00:00.000Z', points: 20, totalMetres: 1900 },
    { sport: 'transition', start: '2025-04-12T05:40:00.000Z', points: 3, totalMetres: 250, step: 0.0001 },
    { sport: 'cycling', subSport: 'road', start: '2025-04-12T05:45:00.000Z', points: 120, totalMetres: 90_000 },
    { sport: 'transition', start: '2025-04-12T08:30:00.000Z', points: 2, totalMetres: 120, step: 0.0001 },
    { sport: 'running', start: '2025-04-12T08:35:00.000Z', points: 60, totalMetres: 21_100 },
  ];

  it("FIT: a multi-sport file is a part per sport, each with its session's total and type; transitions are dropped", () => {
    const proposal = readActivityFile(multiSportFitFile(triathlon), 'triathlon.fit');
    expect(proposal.parts.map(({ index, sport, entryType, distanceKm, performedAt, startedAt }) => ({ index, sport, entryType, distanceKm, performedAt, startedAt }))).toEqual([
      { index: 0, sport: 'swimming', entryType: 'SWIMMING', distanceKm: 1.9, performedAt: '2025-04-12', startedAt: '2025-04-12T05:00:00.000Z' },
      { index: 1, sport: 'cycling', entryType: 'OUTDOOR_CYCLE', distanceKm: 90, performedAt: '2025-04-12', startedAt: '2025-04-12T05:45:00.000Z' },
      { index: 2, sport: 'running', entryType: 'OUTDOOR_RUN', distanceKm: 21.1, performedAt: '2025-04-12', startedAt: '2025-04-12T08:35:00.000Z' },
    ]);
    expect(proposal).toMatchObject({ distanceKm: 113, entryType: 'SWIMMING', performedAt: '2025-04-12' });
    // Each part's track is its own leg's: the bike's has 120 points, not the swim's 20.
    expect(proposal.parts.map((part) => part.track.length)).toEqual([20, 120, 60]);
  });

  it('FIT: a decoder error after the sessions were read keeps the sessions', () => {
    const broken = withDecoderErrorAtEnd(multiSportFitFile(triathlon));
    expect(readActivityFile(broken, 'triathlon.fit').parts.map((part) => [part.entryType, part.distanceKm])).toEqual([
      ['SWIMMING', 1.9],
      ['OUTDOOR_CYCLE', 90],
      ['OUTDOOR_RUN', 21.1],
    ]);
  });

  it('FIT: a decoder error before any session or record was read is unreadable', () => {
    const encoder = new Encoder();
    encoder.onMesg(Profile.MesgNum.FILE_ID!, { manufacturer: 'development', product: 1, timeCreated: new Date('2025-04-12T05:00:00Z'), type: 'activity' } as FileIdMesg);
    expect(codeOf(() => readActivityFile(withDecoderErrorAtEnd(encoder.close()), 'x.fit'))).toBe('ACTIVITY_FILE_UNREADABLE');
  });

  it("FIT: a header claiming more bytes than the file has (Strava for Android) is read when its session was; a changed byte is damage", () => {
    const fit = fitFile(lateEvening, 'running', 'generic', 5432.1);
    const long = fit.slice();
    const view = new DataView(long.buffer);
    view.setUint32(4, view.getUint32(4, true) + 3, true);
    view.setUint16(12, CrcCalculator.calculateCRC(long, 0, 12), true);
    expect(readActivityFile(long, 'strava.fit')).toMatchObject({ distanceKm: 5.43, performedAt: '2025-04-10' });
    const changed = fit.slice();
    changed[fit.length - 10] = changed[fit.length - 10]! ^ 0x01;
    expect(codeOf(() => readActivityFile(changed, 'changed.fit'))).toBe('ACTIVITY_FILE_UNREADABLE');
  });

  it('TCX: white space before the XML declaration (Polar Flow) is no damage', () => {
    expect(readActivityFile(xml(`\n  ${new TextDecoder().decode(tcxFile(lateEvening, 'Running', 4160))}`), 'polar.tcx')).toMatchObject({ distanceKm: 4.16, entryType: 'OUTDOOR_RUN' });
  });

  it('FIT: a course file is a planned route, not an activity', () => {
    const course = multiSportFitFile([{ sport: 'cycling', start: '2025-04-12T05:00:00.000Z', points: 20, totalMetres: 1900 }], 'course');
    expect(codeOf(() => readActivityFile(course, 'course.fit'))).toBe('ACTIVITY_FILE_IS_ROUTE');
  });

  it('GPX: a planned route beside a track is not counted; routes only (with waypoints) are a route, whatever <metadata><time> says', () => {
    const both = xml(`${GPX_OPEN}<metadata><time>2025-03-01T10:00:00Z</time></metadata><rte><name>Plan</name>${points('rtept', 40, null)}</rte><trk><type>running</type><trkseg>${points('trkpt', 11, '2025-04-12T06:00:00Z')}</trkseg></trk></gpx>`);
    expect(readActivityFile(both, 'both.gpx')).toMatchObject({ distanceKm: 1, performedAt: '2025-04-12', parts: [{ distanceKm: 1 }] });
    const routeOnly = xml(`${GPX_OPEN}<metadata><time>2025-04-12T10:00:00Z</time></metadata><wpt lat="59.4" lon="24.7"><name>Start</name></wpt><rte>${points('rtept', 40, null)}</rte></gpx>`);
    expect(codeOf(() => readActivityFile(routeOnly, 'plan.gpx'))).toBe('ACTIVITY_FILE_IS_ROUTE');
    const routeWithTimes = xml(`${GPX_OPEN}<rte>${points('rtept', 40, '2025-04-12T06:00:00Z')}</rte></gpx>`);
    expect(codeOf(() => readActivityFile(routeWithTimes, 'plan.gpx'))).toBe('ACTIVITY_FILE_IS_ROUTE');
  });

  it('TCX: a course without an activity is a planned route', () => {
    const course = xml(`<?xml version="1.0" encoding="UTF-8"?>
<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Courses><Course><Name>Loop</Name>
<Lap><TotalTimeSeconds>600</TotalTimeSeconds><DistanceMeters>2000</DistanceMeters></Lap>
<Track><Trackpoint><Time>2025-04-12T06:00:00Z</Time><Position><LatitudeDegrees>59.437</LatitudeDegrees><LongitudeDegrees>24.7454</LongitudeDegrees></Position><DistanceMeters>0</DistanceMeters></Trackpoint>
<Trackpoint><Time>2025-04-12T06:10:00Z</Time><Position><LatitudeDegrees>59.455</LatitudeDegrees><LongitudeDegrees>24.7454</LongitudeDegrees></Position><DistanceMeters>2000</DistanceMeters></Trackpoint></Track>
</Course></Courses></TrainingCenterDatabase>`);
    expect(codeOf(() => readActivityFile(course, 'course.tcx'))).toBe('ACTIVITY_FILE_IS_ROUTE');
  });

  it('TCX: a MultiSportSession is a part per sport, each with its laps\' total', () => {
    const activity = (sport: string, start: string, metres: number) =>
      `<Activity Sport="${sport}"><Id>${start}</Id><Lap StartTime="${start}"><DistanceMeters>${metres}</DistanceMeters><Track><Trackpoint><Time>${start}</Time></Trackpoint></Track></Lap></Activity>`;
    const file = xml(`<?xml version="1.0" encoding="UTF-8"?>
<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities><MultiSportSession><Id>2025-04-12T06:00:00Z</Id>
<FirstSport>${activity('Running', '2025-04-12T06:00:00Z', 5000)}</FirstSport>
<NextSport>${activity('Biking', '2025-04-12T06:30:00Z', 20000)}</NextSport>
<NextSport>${activity('Running', '2025-04-12T07:30:00Z', 2500)}</NextSport>
</MultiSportSession></Activities></TrainingCenterDatabase>`);
    // A duathlon's two runs are one entry: one sport on one day.
    expect(readActivityFile(file, 'duathlon.tcx').parts.map((part) => [part.sport, part.entryType, part.distanceKm, part.performedAt])).toEqual([
      ['Running', 'OUTDOOR_RUN', 7.5, '2025-04-12'],
      ['Biking', 'OUTDOOR_CYCLE', 20, '2025-04-12'],
    ]);
  });

  it('honours the declared encoding (ISO-8859-1, windows-1252, UTF-16 with its BOM); an unknown one is unreadable', () => {
    const body = `<gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Jõulujooks Pärnus</name><type>running</type><trkseg>${points('trkpt', 11, '2025-04-12T06:00:00Z')}</trkseg></trk></gpx>`;
    const latin1 = Uint8Array.from(`<?xml version="1.0" encoding="ISO-8859-1"?>\n${body.replace('õ', 'o')}`, (c) => c.charCodeAt(0));
    expect(latin1.includes(0xe4)).toBe(true); // 'ä' as one Latin-1 byte: invalid as UTF-8
    expect(readActivityFile(latin1, 'latin1.gpx')).toMatchObject({ distanceKm: 1, entryType: 'OUTDOOR_RUN' });
    const cp1252 = Uint8Array.from(`<?xml version="1.0" encoding="windows-1252"?>\n${body.replace('õ', '\u0080').replace('Jõulujooks', 'Jooks \u0080')}`, (c) => (c === '\u0080' ? 0x80 : c.charCodeAt(0)));
    expect(readActivityFile(cp1252, 'cp1252.gpx').distanceKm).toBe(1);
    const text = `<?xml version="1.0" encoding="UTF-16"?>\n${body}`;
    const u16 = new Uint8Array(2 + text.length * 2);
    u16.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) new DataView(u16.buffer).setUint16(2 + i * 2, text.charCodeAt(i), true);
    expect(readActivityFile(u16, 'utf16.gpx')).toMatchObject({ format: 'gpx', distanceKm: 1 });
    const unknown = xml(`<?xml version="1.0" encoding="x-klingon"?>\n${body}`);
    expect(codeOf(() => readActivityFile(unknown, 'klingon.gpx'))).toBe('ACTIVITY_FILE_UNREADABLE');
  });

  it('a GPX without timestamps (drawn in an editor) has no day and its track\'s km, not "damaged"', () => {
    const drawn = xml(`${GPX_OPEN}<metadata><time>2025-04-12T10:00:00Z</time></metadata><trk><trkseg>${points('trkpt', 21, null)}</trkseg></trk></gpx>`);
    expect(readActivityFile(drawn, 'drawn.gpx')).toMatchObject({ distanceKm: 2, performedAt: null, startedAt: null, entryType: null, parts: [{ index: 0, distanceKm: 2, performedAt: null, startedAt: null }] });
  });

  it('an activity over midnight is a part per local day, km split where its points fall', () => {
    // 21:00 UTC is midnight in Tallinn (UTC+3): points 20:30..20:59 on the 9th (29 steps of 100 m), the
    // rest on the 10th (61 steps, the one over midnight counted on the day it ends).
    const proposal = readActivityFile(gpxFile({ start: '2025-04-09T20:30:00.000Z', points: 91 }), 'midnight.gpx');
    expect(proposal.parts.map((part) => [part.performedAt, part.distanceKm, part.startedAt])).toEqual([
      ['2025-04-09', 2.9, '2025-04-09T20:30:00.000Z'],
      ['2025-04-10', 6.1, '2025-04-09T21:00:00.000Z'],
    ]);
    expect(proposal.distanceKm).toBe(9);
  });

  it("a FIT over midnight apportions the device's total by the track's share on each day", () => {
    const proposal = readActivityFile(fitFile({ start: '2025-04-09T20:30:00.000Z', points: 91 }, 'walking', 'generic', 10_000), 'night.fit');
    expect(proposal.parts.map((part) => [part.performedAt, part.distanceKm, part.entryType])).toEqual([
      ['2025-04-09', 3.22, 'WALK'], // 10 km × 29/90
      ['2025-04-10', 6.78, 'WALK'],
    ]);
  });

  it('a multi-day hike is a part per day, in the zone given', () => {
    const day = (date: string, lat0: number) => `<trkseg>${points('trkpt', 51, `${date}T06:00:00Z`, lat0)}</trkseg>`;
    const file = xml(`${GPX_OPEN}<trk><type>hiking</type>${day('2025-04-12', 59.437)}${day('2025-04-13', 59.482)}${day('2025-04-14', 59.527)}</trk></gpx>`);
    expect(readActivityFile(file, 'hike.gpx').parts.map((part) => [part.performedAt, part.distanceKm, part.entryType])).toEqual([
      ['2025-04-12', 5, 'WALK'],
      ['2025-04-13', 5, 'WALK'],
      ['2025-04-14', 5, 'WALK'],
    ]);
    // In Los Angeles 06:00 UTC is the evening before.
    expect(readActivityFile(file, 'hike.gpx', 'America/Los_Angeles').parts.map((part) => part.performedAt)).toEqual(['2025-04-11', '2025-04-12', '2025-04-13']);
  });

  it('a GPX of tracks of two sports is a part per sport; Strava\'s numeric types map', () => {
    const file = xml(`${GPX_OPEN}<trk><type>9</type><trkseg>${points('trkpt', 11, '2025-04-12T06:00:00Z')}</trkseg></trk><trk><type>1</type><trkseg>${points('trkpt', 31, '2025-04-12T07:00:00Z')}</trkseg></trk></gpx>`);
    expect(readActivityFile(file, 'strava.gpx').parts.map((part) => [part.sport, part.entryType, part.distanceKm])).toEqual([
      ['9', 'OUTDOOR_RUN', 1],
      ['1', 'OUTDOOR_CYCLE', 3],
    ]);
  });

  it('measures a track as @turf/length did over the whole document, within 0.1 %', () => {
    const file = largeGpxFile(400_000);
    const document = new DOMParser().parseFromString(new TextDecoder().decode(file), 'text/xml');
    const before = togeojsonGpx(document as unknown as Parameters<typeof togeojsonGpx>[0]).features.reduce((km, feature) => km + turfLength(feature, { units: 'kilometers' }), 0);
    const now = readActivityFile(file, 'long.gpx').distanceKm;
    expect(before).toBeGreaterThan(5);
    expect(Math.abs(now - before) / before).toBeLessThan(0.001);
  });

  // How fast is the bench's business (tests/bench/uploads.ts); these say that large files are read whole.
  it('reads a 19 MB GPX, its tracks thinned', () => {
    const file = largeGpxFile(19 * 1024 * 1024);
    const proposal = readActivityFile(file, 'big.gpx');
    expect(proposal.parts.length).toBeGreaterThanOrEqual(1);
    expect(proposal.parts.every((part) => part.track.length <= MAX_TRACK_POINTS)).toBe(true);
  }, 60_000);

  it('reads a 13 MB TCX (the document reader took 31 s for 14 MB)', () => {
    const file = tcxFile({ start: '2025-04-12T06:00:00.000Z', points: 75_000, step: 0.000001 }, 'Biking', 50_000);
    expect(file.byteLength).toBeGreaterThan(13_000_000);
    const proposal = readActivityFile(file, 'big.tcx');
    // 75 000 points a minute apart span 53 local days: the laps' 50 km apportioned by each day's share of the track.
    expect(proposal.distanceKm).toBeCloseTo(50, 1);
  }, 60_000);

  it('reads a 19 MB GPX with a 32 MB heap in a process of its own (the old document reader needed over 1 GB)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'activity-files-'));
    try {
      const path = join(dir, 'big.gpx');
      writeFileSync(path, largeGpxFile(19 * 1024 * 1024));
      const script = fileURLToPath(new URL('./measure-read.ts', import.meta.url));
      const child = spawnSync(process.execPath, ['--max-old-space-size=32', '--import', 'tsx', script, path], { encoding: 'utf8', timeout: 60_000 });
      expect(child.stderr).toBe('');
      const measured = JSON.parse(child.stdout) as { bytes: number; seconds: number; maxRssMb: number; parts: { distanceKm: number }[] };
      console.info(`19 MB GPX: ${measured.seconds} s, peak RSS ${measured.maxRssMb} MB (heap limit 32 MB)`);
      expect(child.status).toBe(0);
      expect(measured.bytes).toBeGreaterThan(19 * 1024 * 1024);
      expect(measured.parts.length).toBeGreaterThanOrEqual(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
