/**
 * The corpus of real device files (corpus/README.md, corpus/manifest.json): every file read as its
 * device reads it. The sum of the parts' km within 2 % of the device's own total (plus the 0.005 km
 * of rounding to 0.01 km), the parts the manifest lists in order with their entry type and km, the
 * local days of the parts, or the refusal a planned route or course gets.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DomainError, type ActivityType } from '@sinilill/domain';
import { readActivityFile, type ActivityFileProposal } from './read';

/** One object of corpus/manifest.json (the README says how each figure was found). */
interface CorpusEntry {
  file: string;
  source: { repo: string; path: string; commit: string; licence: string };
  device: string;
  format: 'gpx' | 'tcx' | 'fit';
  kind: 'activity' | 'route';
  /** The zone the file is read in; Europe/Tallinn (the reader's default) when absent. */
  timeZone?: string;
  expected: {
    km: number;
    kmSource: string;
    parts?: { entryType: ActivityType; km: number }[];
    /** The parts' local days; [] when the file has no time at all. */
    days?: string[];
    error?: string;
  };
}

/** What a part of a reading is compared on. */
interface PartRead {
  entryType: ActivityType | null;
  km: number;
  performedAt: string | null;
}

const CORPUS = new URL('../corpus/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('manifest.json', CORPUS), 'utf8')) as CorpusEntry[];

/** 2 % of the device's figure, and half of the reader's 0.01 km rounding (a 68 m walk reads 0.07). */
const tolerance = (km: number) => km * 0.02 + 0.005;

/**
 * A proposal's parts. A reader from before parts existed proposes one entry for the whole file,
 * which is read here as a single part, so that the corpus also measures that reader.
 */
function partsOf(proposal: ActivityFileProposal): PartRead[] {
  const parts = (proposal as { parts?: { entryType: ActivityType | null; distanceKm: number; performedAt: string | null }[] }).parts;
  if (parts === undefined) return [{ entryType: proposal.entryType, km: proposal.distanceKm, performedAt: proposal.performedAt }];
  return parts.map((part) => ({ entryType: part.entryType, km: part.distanceKm, performedAt: part.performedAt }));
}

/** The refusal's catalogue code, or null when the file is read. */
function refusalOf(read: () => unknown): string | null {
  try {
    read();
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}

describe('the corpus of real device files', () => {
  it('holds the files its manifest lists, and nothing else', () => {
    const listed = new Set(manifest.map((entry) => entry.file));
    expect(listed.size).toBe(manifest.length);
    expect(manifest.length).toBeGreaterThanOrEqual(30);
    for (const entry of manifest) expect(readFileSync(new URL(entry.file, CORPUS)).byteLength, entry.file).toBeGreaterThan(0);
  });

  for (const entry of manifest) {
    const { expected } = entry;
    const title = expected.error
      ? `${entry.file} (${entry.device}): refused with ${expected.error}`
      : `${entry.file} (${entry.device}): ${expected.km} km`;
    it(title, () => {
      const bytes = new Uint8Array(readFileSync(new URL(entry.file, CORPUS)));
      const read = () => readActivityFile(bytes, entry.file, entry.timeZone);
      if (expected.error) {
        expect(refusalOf(read)).toBe(expected.error);
        return;
      }
      const proposal = read();
      expect(proposal.format).toBe(entry.format);
      const parts = partsOf(proposal);
      const km = parts.reduce((sum, part) => sum + part.km, 0);
      expect(Math.abs(km - expected.km), `${km.toFixed(2)} km read, the device says ${expected.km} km (${expected.kmSource})`).toBeLessThanOrEqual(tolerance(expected.km));

      if (expected.parts) {
        // A transition between sports has no entry type and a few hundred metres: not compared.
        const compared = parts.filter((part) => part.entryType !== null || part.km >= expected.km * 0.02);
        expect(compared.map((part) => part.entryType), 'the parts\' entry types, in order').toEqual(expected.parts.map((part) => part.entryType));
        compared.forEach((part, index) => {
          const want = expected.parts![index]!.km;
          expect(Math.abs(part.km - want), `part ${index}: ${part.km} km read, ${want} km expected`).toBeLessThanOrEqual(tolerance(want));
        });
      }

      if (expected.days) {
        const days = [...new Set(parts.map((part) => part.performedAt).filter((day): day is string => day !== null))].sort();
        expect(days, 'the local days of the parts').toEqual(expected.days);
        if (expected.days.length === 0) expect(parts.every((part) => part.performedAt === null)).toBe(true);
      }
    }, 30_000);
  }
});
