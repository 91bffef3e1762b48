import { describe, expect, it } from 'vitest';
import type { NewsAnswer } from '@sinilill/contracts';
import { blocksFromStrapi, blocksFromText, cachedSource, storiesFromStrapi } from './news-source';

describe('blocksFromStrapi', () => {
  it('keeps the words of paragraphs, headings, quotes and lists, drops formatting and pictures', () => {
    expect(
      blocksFromStrapi([
        { type: 'heading', level: 3, children: [{ type: 'text', text: 'Title ' }] },
        { type: 'paragraph', children: [{ type: 'text', text: 'a ', italic: true }, { type: 'link', url: 'https://x', children: [{ type: 'text', text: 'b' }] }] },
        { type: 'list', format: 'unordered', children: [{ type: 'list-item', children: [{ type: 'text', text: 'one' }] }, { type: 'list-item', children: [] }] },
        { type: 'quote', children: [{ type: 'text', text: 'q' }] },
        { type: 'code', children: [{ type: 'text', text: 'npm start' }] },
        { type: 'image', image: { url: '/x.png' } },
        { type: 'paragraph', children: [{ type: 'text', text: '   ' }] },
        'not a block',
      ]),
    ).toEqual([
      { type: 'heading', text: 'Title' },
      { type: 'paragraph', text: 'a b' },
      { type: 'list', ordered: false, items: ['one'] },
      { type: 'quote', text: 'q' },
      { type: 'paragraph', text: 'npm start' },
    ]);
  });
});

describe('blocksFromText', () => {
  it('reads Markdown-ish text: headings, lists, quotes, paragraphs joined across lines', () => {
    expect(blocksFromText('## Results\n\nWe moved\na lot.\r\n\r\n- one\n- two\n\n1. first\n2) second\n\n> quoted\n> on\n\n')).toEqual([
      { type: 'heading', text: 'Results' },
      { type: 'paragraph', text: 'We moved a lot.' },
      { type: 'list', ordered: false, items: ['one', 'two'] },
      { type: 'list', ordered: true, items: ['first', 'second'] },
      { type: 'quote', text: 'quoted on' },
    ]);
  });
});

describe('storiesFromStrapi', () => {
  it('unwraps Strapi 4 attributes and media wrappers, keeps absolute media URLs', () => {
    const stories = storiesFromStrapi(
      {
        data: [
          {
            id: 4,
            attributes: {
              title: 'Old style',
              body: 'Plain text body',
              publishedAt: '2025-04-01T06:00:00+03:00',
              cover: { data: { id: 1, attributes: { url: 'https://cdn.example.ee/a.jpg', alternativeText: '', width: 10, height: 5 } } },
            },
          },
        ],
      },
      'https://cms.example.ee',
    );
    expect(stories).toEqual([
      {
        id: '4',
        title: 'Old style',
        body: [{ type: 'paragraph', text: 'Plain text body' }],
        publishedAt: '2025-04-01T03:00:00.000Z',
        image: { url: 'https://cdn.example.ee/a.jpg', alt: null, width: 10, height: 5 },
      },
    ]);
  });

  it('leaves out entries without a date or without any content, sorts newest first', () => {
    const stories = storiesFromStrapi(
      {
        data: [
          { documentId: 'a', title: 'A', publishedAt: '2025-04-01T00:00:00Z' },
          { documentId: 'b', title: '', content: [], publishedAt: '2025-04-03T00:00:00Z' },
          { documentId: 'c', title: 'C', publishedAt: null },
          { documentId: 'd', title: 'D', publishedAt: '2025-04-02T00:00:00Z' },
        ],
      },
      'http://cms',
    );
    expect(stories.map((s) => s.id)).toEqual(['d', 'a']);
  });

  it('refuses an answer without a data list', () => {
    expect(() => storiesFromStrapi({ error: {} }, 'http://cms')).toThrow();
    expect(() => storiesFromStrapi(null, 'http://cms')).toThrow();
  });
});

describe('cachedSource', () => {
  it('reuses an answer per language for ttl ms and forgets failures', async () => {
    let clock = 0;
    const calls: string[] = [];
    let fail = true;
    const source = cachedSource(
      async (locale) => {
        calls.push(locale);
        if (fail) throw new Error('down');
        return { stories: [] } satisfies NewsAnswer;
      },
      1000,
      () => clock,
    );
    await expect(source('et')).rejects.toThrow('down');
    fail = false;
    await source('et');
    await source('et');
    await source('en');
    clock = 1000;
    await source('et');
    expect(calls).toEqual(['et', 'et', 'en', 'et']);
  });
});
