import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, test } from 'vitest';
import type { CertificateAnswer } from '@sinilill/contracts';
import { certificatePdf, printable } from './pdf';

const FIGURES: CertificateAnswer = {
  code: '3400-1G75-FBF4-Z9KJ', kind: 'participant', name: 'Jüri Õunapuu-Šmidt', team_name: 'Pärnu Pääsukesed',
  distance: 1234.5, blueFlowers: 17, missions: 16, edition: { year: 2025, startDate: '2025-04-01', endDate: '2025-04-30' },
};

describe('the certificate PDF', () => {
  test('one A4 landscape page whose metadata name the person and the code', async () => {
    const bytes = await certificatePdf({ figures: FIGURES, verifyUrl: `https://sinilill.test/verify/${FIGURES.code}`, issuedAt: new Date('2025-05-10T10:00:00Z') });
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    const { width, height } = doc.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([842, 595]);
    expect(doc.getTitle()).toBe('Sinilill 2025 – Jüri Õunapuu-Šmidt');
    expect(doc.getSubject()).toBe(`Sinilill certificate ${FIGURES.code}`);
    expect(doc.getKeywords()).toContain(`https://sinilill.test/verify/${FIGURES.code}`);
    expect(doc.getCreationDate()?.toISOString()).toBe('2025-05-10T10:00:00.000Z');
  });

  test('a team\'s certificate and a name outside WinAnsi are drawn too', async () => {
    const bytes = await certificatePdf({
      figures: { ...FIGURES, kind: 'team', name: 'Жанна и друзья – a very long team name that must be made to fit', team_name: 'x' },
      verifyUrl: 'https://sinilill.test/verify/x', issuedAt: new Date('2025-05-10T10:00:00Z'),
    });
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(1);
  });

  test('printable keeps Estonian letters and replaces what the standard font cannot show', async () => {
    const font = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
    expect(printable('õäöü ŠŽšž', font)).toBe('õäöü ŠŽšž');
    expect(printable('Ādam Жан', font)).toBe('Adam ???');
  });
});
