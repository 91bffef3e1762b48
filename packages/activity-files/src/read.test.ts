import { describe, expect, it } from 'vitest';
import { DomainError } from '@sinilill/domain';
import { MAX_ACTIVITY_FILE_BYTES, MAX_TRACK_POINTS, readActivityFile } from './read';
import { fitFile, gpxFile, tcxFile } from './testing';

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
});
