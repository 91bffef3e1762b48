import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { SHARE_IMAGE_MIN_FONT_PX, SHARE_IMAGE_WIDTH, shareImagePng, shareTree, type Node, type ShareFigures } from './share-image';
import { escapeHtml, progressPageHtml, PROGRESS_PAGE_CSP } from './share-page';
import { formatCount, formatDates, formatKm } from './texts';

const FIGURES: ShareFigures = {
  teamName: 'Pärnu Pääsukesed', distance: 1234, blueFlowers: 17, missionsInLap: 16, missionsPerLap: 24, laps: 0, lapFraction: 0.652, year: 2025,
};

describe('the share image', () => {
  test('is a 1200×630 PNG', async () => {
    const png = await shareImagePng(FIGURES, 'et');
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1200, 630]);
  });

  test('its smallest type is at least 12 px when a phone shows it 360 px wide', () => {
    const sizes: number[] = [];
    const walk = (node: Node | string) => {
      if (typeof node === 'string') return;
      const style = node.props.style as { fontSize?: number } | undefined;
      if (style?.fontSize !== undefined) sizes.push(style.fontSize);
      const children = node.props.children as Node | string | (Node | string)[] | undefined;
      for (const child of Array.isArray(children) ? children : children === undefined ? [] : [children]) walk(child);
    };
    walk(shareTree({ ...FIGURES, laps: 2 }, 'et'));
    expect(sizes.length).toBeGreaterThan(5);
    expect(Math.min(...sizes)).toBe(SHARE_IMAGE_MIN_FONT_PX);
    expect((Math.min(...sizes) * 360) / SHARE_IMAGE_WIDTH).toBeGreaterThanOrEqual(12);
  });

  test('shows the progress: a longer bar makes a different picture', async () => {
    const [a, b] = await Promise.all([shareImagePng(FIGURES, 'en'), shareImagePng({ ...FIGURES, lapFraction: 0.1 }, 'en')]);
    expect(a.equals(b)).toBe(false);
  });
});

describe('the team-progress page', () => {
  const page = (lang: 'et' | 'en') => progressPageHtml({
    figures: { ...FIGURES, teamName: 'Tom & <Jerry>' }, lang, pageUrl: 'https://sinilill.test/api/share/team/7',
    imageUrl: 'https://sinilill.test/api/team/7/share.png?lang=et&v=abc', otherLanguageUrl: '/api/share/team/7?lang=en', homeUrl: '/',
  });

  test('carries the Open Graph tags in the HTML itself, the image by its absolute address', () => {
    const html = page('et');
    expect(html).toContain('<html lang="et">');
    expect(html).toContain('<meta property="og:image" content="https://sinilill.test/api/team/7/share.png?lang=et&amp;v=abc">');
    expect(html).toContain('<meta property="og:image:width" content="1200">');
    expect(html).toContain('<meta property="og:image:height" content="630">');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(html).toContain('<meta property="og:title" content="Tom &amp; &lt;Jerry&gt; – Sinilill">');
    expect(html).toContain('kogunud 17 sinililleõit');
    expect(page('en')).toContain('collected 17 blue flowers');
    // The missions are the current lap's, and the lap is named.
    expect(html).toContain('Teekonna 1. ringil on läbitud 16 missiooni 24-st');
    expect(page('en')).toContain('On lap 1 of the route it has completed 16 of 24 missions');
    expect(html).not.toContain('<Jerry>');
  });

  test('its policy allows its own style and images, and no script', () => {
    expect(PROGRESS_PAGE_CSP).toMatch(/default-src 'none'/);
    expect(PROGRESS_PAGE_CSP).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(PROGRESS_PAGE_CSP).not.toMatch(/script-src/);
  });

  test('escapes every markup character', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});

describe('formats', () => {
  test('km with two decimals and the edition\'s dates, per language', () => {
    expect(formatKm(1234.5, 'et')).toBe('1 234,50');
    expect(formatKm(12345.5, 'et')).toBe('12 345,50');
    expect(formatKm(0.1, 'et')).toBe('0,10');
    expect(formatKm(1234.5, 'en')).toBe('1 234.50');
    expect(formatCount(196445, 'en')).toBe('196 445');
    expect(formatDates('2025-04-01', '2025-04-30', 'et')).toBe('1.–30. aprill 2025');
    expect(formatDates('2025-04-01', '2025-04-30', 'en')).toBe('1–30 April 2025');
  });
});
