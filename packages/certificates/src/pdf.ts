/**
 * The certificate as a PDF: one A4 landscape page, Estonian on the left and
 * English on the right, with the figures, the edition's dates, the cause, and a QR code of the
 * verification address with the code in text below it. Drawn with pdf-lib and its standard
 * Helvetica (WinAnsi: Estonian õ ä ö ü š ž are in it); a character outside WinAnsi (a Cyrillic
 * name) is printed without its accent where it has one, else as "?" — the verification page
 * shows the name exactly. The document's title, subject (with the code), keywords and language
 * are set, so a program can read what the page says.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';
import type { CertificateAnswer } from '@sinilill/contracts';
import { formatCount, formatDates, formatKm, TEXTS, type Language } from './texts';

/** What a certificate prints: the verified figures (CertificateAnswer) and where to verify them. */
export interface CertificateContent {
  figures: CertificateAnswer;
  /** The verification page's absolute address (`<PUBLIC_URL>/verify/<code>`), in the QR code. */
  verifyUrl: string;
  /** When the PDF is made (the app's clock): its creation date. */
  issuedAt: Date;
}

/** A4 landscape, PostScript points. */
const WIDTH = 841.89;
const HEIGHT = 595.28;
const BLUE = rgb(0, 0.431, 0.867);
const INK = rgb(0.11, 0.13, 0.2);
const GREY = rgb(0.35, 0.38, 0.45);

/** `text` with every character `font` cannot encode replaced: its letter without accent, else "?". */
export function printable(text: string, font: PDFFont): string {
  let out = '';
  for (const char of text) {
    const candidates = [char, char.normalize('NFKD').replace(/\p{M}/gu, '')];
    const usable = candidates.find((c) => {
      if (c === '') return false;
      try {
        font.encodeText(c);
        return true;
      } catch {
        return false;
      }
    });
    out += usable ?? '?';
  }
  return out;
}

/** The largest size ≤ `size` (down to 8 pt) at which `text` fits in `width`. */
function fitted(text: string, font: PDFFont, size: number, width: number): number {
  let s = size;
  while (s > 8 && font.widthOfTextAtSize(text, s) > width) s -= 0.5;
  return s;
}

/** Words of `text` in lines no wider than `width` at `size`. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line === '' ? word : `${line} ${word}`;
    if (line !== '' && font.widthOfTextAtSize(next, size) > width) {
      lines.push(line);
      line = word;
    } else {
      line = next;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** One language's column, from `top` down, `width` wide at `x`. */
function drawColumn(page: PDFPage, fonts: Fonts, lang: Language, figures: CertificateAnswer, x: number, top: number, width: number): void {
  const t = TEXTS[lang];
  const team = figures.kind === 'team';
  let y = top;
  const text = (value: string, font: PDFFont, size: number, color = INK) => {
    const safe = printable(value, font);
    const fit = fitted(safe, font, size, width);
    page.drawText(safe, { x, y, size: fit, font, color });
  };
  text(t.certificate.toUpperCase(), fonts.bold, 26, BLUE);
  y -= 26;
  for (const line of wrap(team ? t.teamLead : t.participantLead, fonts.regular, 12, width)) {
    text(line, fonts.regular, 12, GREY);
    y -= 16;
  }
  y -= 14;
  text(figures.name, fonts.bold, 22);
  y -= 36;
  const rows: [string, string][] = [
    ...(team ? [] : [[t.team, figures.team_name] as [string, string]]),
    [team ? t.teamDistance : t.distance, `${formatKm(figures.distance, lang)} km`],
    [t.flowers, formatCount(figures.blueFlowers, lang)],
    [t.missions, formatCount(figures.missions, lang)],
    [t.dates, formatDates(figures.edition.startDate, figures.edition.endDate, lang)],
  ];
  for (const [label, value] of rows) {
    text(label, fonts.regular, 10, GREY);
    y -= 15;
    text(value, fonts.bold, 14);
    y -= 24;
  }
  y -= 4;
  for (const line of wrap(t.cause, fonts.regular, 11, width)) {
    text(line, fonts.regular, 11);
    y -= 15;
  }
}

/**
 * The certificate's PDF bytes: A4 landscape, one page. Metadata: title "Sinilill <year> – <name>",
 * subject the code (`Sinilill certificate <code>`), keywords the code and the verification address,
 * language et. Deterministic for the same content (the dates come from `issuedAt`).
 */
export async function certificatePdf(content: CertificateContent): Promise<Uint8Array> {
  const { figures, verifyUrl, issuedAt } = content;
  const doc = await PDFDocument.create();
  doc.setTitle(`Sinilill ${figures.edition.year} – ${figures.name}`);
  doc.setSubject(`Sinilill certificate ${figures.code}`);
  doc.setKeywords([figures.code, verifyUrl]);
  doc.setAuthor('Sinilill');
  doc.setCreator('Sinilill');
  doc.setProducer('Sinilill (pdf-lib)');
  doc.setLanguage('et');
  doc.setCreationDate(issuedAt);
  doc.setModificationDate(issuedAt);
  const page = doc.addPage([WIDTH, HEIGHT]);
  const fonts: Fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };
  // A frame in the event's blue.
  page.drawRectangle({ x: 24, y: 24, width: WIDTH - 48, height: HEIGHT - 48, borderColor: BLUE, borderWidth: 3 });
  page.drawRectangle({ x: 32, y: 32, width: WIDTH - 64, height: HEIGHT - 64, borderColor: BLUE, borderWidth: 0.75 });
  const columnWidth = 300;
  drawColumn(page, fonts, 'et', figures, 64, HEIGHT - 96, columnWidth);
  drawColumn(page, fonts, 'en', figures, WIDTH - 64 - columnWidth, HEIGHT - 96, columnWidth);
  page.drawLine({ start: { x: WIDTH / 2, y: 230 }, end: { x: WIDTH / 2, y: HEIGHT - 80 }, color: BLUE, thickness: 0.5 });
  // The QR code of the verification page, centred below the columns, and the code under it.
  const qr = await QRCode.toBuffer(verifyUrl, { type: 'png', errorCorrectionLevel: 'M', margin: 1, width: 360 });
  const image = await doc.embedPng(qr);
  const side = 110;
  page.drawImage(image, { x: (WIDTH - side) / 2, y: 96, width: side, height: side });
  const centred = (value: string, font: PDFFont, size: number, y: number, color = INK) => {
    const safe = printable(value, font);
    const fit = fitted(safe, font, size, WIDTH - 120);
    page.drawText(safe, { x: (WIDTH - font.widthOfTextAtSize(safe, fit)) / 2, y, size: fit, font, color });
  };
  centred(`${TEXTS.et.code} / ${TEXTS.en.code}: ${figures.code}`, fonts.bold, 14, 74);
  centred(`${TEXTS.et.verify} / ${TEXTS.en.verify}:`, fonts.regular, 9, 58, GREY);
  centred(verifyUrl, fonts.regular, 9, 46, GREY);
  return doc.save();
}
