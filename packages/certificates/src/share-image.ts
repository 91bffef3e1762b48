/**
 * A team's share image: a 1200×630 PNG (the Open Graph size) with the team's
 * name, km, blue flowers, missions completed and a progress bar along the current lap of the
 * route — only what GET /api/stats shows the public. Laid out by satori (text drawn as paths with
 * the Inter typeface of @fontsource/inter, latin and latin-ext, so no system font is needed) and
 * rasterised by sharp. Texts in the language of the page that shares it (Estonian or English).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import satori from 'satori';
import sharp from 'sharp';
import { formatCount, TEXTS, type Language } from './texts';

/** The Open Graph image size, px. */
export const SHARE_IMAGE_WIDTH = 1200;
export const SHARE_IMAGE_HEIGHT = 630;

/** What the image shows: public figures only (as GET /api/stats has them). */
export interface ShareFigures {
  teamName: string;
  /** The team's km (rounded whole km, as the public stats show). */
  distance: number;
  blueFlowers: number;
  /** Missions completed in the current lap (end ≤ in-lap km). */
  missionsInLap: number;
  /** Missions per lap (24 in 2025). */
  missionsPerLap: number;
  /** Completed laps (prestige) and the fraction 0..1 of the current one. */
  laps: number;
  lapFraction: number;
  /** The edition's year. */
  year: number;
}

const PADDING = 64;
const BORDER = 16;

/** A satori element: its type and props (style, children). */
export type Node = { type: string; props: Record<string, unknown> };

/** A satori element (the shape React.createElement makes), without React. */
function h(type: string, style: Record<string, unknown>, ...children: (Node | string)[]): Node {
  return { type, props: { style, children: children.length === 1 ? children[0] : children } };
}

const require = createRequire(import.meta.url);
type Font = { name: string; data: Buffer; weight: 400 | 700; style: 'normal' };
let fonts: Promise<Font[]> | null = null;

/** Inter regular and bold, latin and latin-ext subsets (WOFF: satori reads WOFF, not WOFF2), read once. */
function interFonts(): Promise<Font[]> {
  fonts ??= Promise.all(
    (['latin', 'latin-ext'] as const).flatMap((subset) => ([400, 700] as const).map(async (weight) => ({
      // A name per subset: satori falls back from one font to the next for a missing glyph.
      name: subset === 'latin' ? 'Inter' : 'Inter Ext',
      data: await readFile(require.resolve(`@fontsource/inter/files/inter-${subset}-${weight}-normal.woff`)),
      weight,
      style: 'normal' as const,
    }))),
  ).catch((error: unknown) => {
    fonts = null;
    throw error;
  });
  return fonts;
}

/**
 * The smallest type on the image, px. Shared links are mostly seen on phones, where the image is
 * about 360 px wide (0.3 of its size): 40 px draws as 12 px there, the least that stays readable.
 */
export const SHARE_IMAGE_MIN_FONT_PX = 40;

/** The image's layout (satori's element tree); exported for the tests. */
export function shareTree(figures: ShareFigures, lang: Language): Node {
  const t = TEXTS[lang];
  const percent = Math.max(0, Math.min(100, figures.lapFraction * 100));
  const small = SHARE_IMAGE_MIN_FONT_PX;
  const stat = (value: string, label: string, last = false) => h('div', { display: 'flex', flexDirection: 'column', marginRight: last ? 0 : 56 },
    h('div', { fontSize: 84, fontWeight: 700, color: '#0b1f44', lineHeight: 1.05 }, value),
    h('div', { fontSize: small, color: '#2e3850' }, label));
  return h('div', {
    // satori sizes the content box: the padding and the border come on top.
    width: SHARE_IMAGE_WIDTH - 2 * PADDING, height: SHARE_IMAGE_HEIGHT - 2 * PADDING - BORDER, display: 'flex', flexDirection: 'column',
    justifyContent: 'space-between', padding: PADDING, backgroundColor: '#f3f7ff', fontFamily: 'Inter',
    borderTop: `${BORDER}px solid #006edd`,
  },
  h('div', { display: 'flex', flexDirection: 'column' },
    h('div', { fontSize: small, fontWeight: 700, color: '#0058b0' }, `Sinilill ${figures.year}`),
    h('div', { fontSize: 72, fontWeight: 700, color: '#0b1f44', lineHeight: 1.1, maxHeight: 160, overflow: 'hidden' }, figures.teamName)),
  // Three figures, each one thing: the team's km, its flowers, and the missions of the lap it is on.
  h('div', { display: 'flex', flexWrap: 'wrap' },
    stat(formatCount(figures.distance, lang), t.kmShort),
    stat(formatCount(figures.blueFlowers, lang), t.flowersShort),
    stat(`${figures.missionsInLap}/${figures.missionsPerLap}`, t.missionsShort(figures.laps + 1), true)),
  h('div', { display: 'flex', flexDirection: 'column' },
    h('div', { display: 'flex', width: '100%', height: 28, backgroundColor: '#d5e3fb', borderRadius: 14 },
      h('div', { display: 'flex', width: `${percent}%`, height: 28, backgroundColor: '#006edd', borderRadius: 14 })),
    h('div', { display: 'flex', justifyContent: 'space-between', fontSize: small, color: '#2e3850', marginTop: 8 },
      h('div', {}, t.lap(figures.laps + 1)),
      h('div', {}, `${Math.floor(percent)}%`))));
}

/** The image as SVG (satori), 1200×630; exported for the tests. */
export async function shareSvg(figures: ShareFigures, lang: Language): Promise<string> {
  // satori's parameter is a ReactNode; the element is exactly what React would make.
  return satori(shareTree(figures, lang) as unknown as Parameters<typeof satori>[0], { width: SHARE_IMAGE_WIDTH, height: SHARE_IMAGE_HEIGHT, fonts: await interFonts() });
}

/** The team's share image in `lang`: PNG bytes, 1200×630. */
export async function shareImagePng(figures: ShareFigures, lang: Language): Promise<Buffer> {
  return sharp(Buffer.from(await shareSvg(figures, lang))).png({ compressionLevel: 9 }).toBuffer();
}
