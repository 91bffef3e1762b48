import { edition2025 } from '@sinilill/domain/seed';
import { describe, expect, it } from 'vitest';
import { editionDayTexts } from './edition-dates';

const nbsp = (text: string) => text.replace(/ /g, '\u00a0');

describe("an edition's days in the home page's words", () => {
  it('names the 2025 days as the texts always did, in Estonian and English', () => {
    expect(editionDayTexts(edition2025, 'et')).toEqual({
      range: nbsp('1.–30. aprill'),
      startOn: nbsp('1. aprillil'),
      span: nbsp('1.–30. aprillini'),
      until: nbsp('30. aprillini'),
      lateDay: nbsp('3. mai'),
      drawOn: nbsp('5. mail'),
      drawTime: '17.00',
    });
    expect(editionDayTexts(edition2025, 'en')).toEqual({
      range: nbsp('1–30 April'),
      startOn: nbsp('1 April'),
      span: `1 to ${nbsp('30 April')}`,
      until: nbsp('30 April'),
      lateDay: nbsp('3 May'),
      drawOn: nbsp('5 May'),
      drawTime: '17:00',
    });
  });

  it('follows an edition in other months, across a month boundary', () => {
    const edition = { startDate: '2027-05-15', endDate: '2027-06-14', lateEntriesUntil: '2027-06-17', prizeDraw: '2027-06-20T12:30' };
    const et = editionDayTexts(edition, 'et');
    expect(et.range).toBe(`${nbsp('15. mai')} – ${nbsp('14. juuni')}`);
    expect(et.span).toBe(`${nbsp('15. maist')} ${nbsp('14. juunini')}`);
    expect(et.startOn).toBe(nbsp('15. mail'));
    expect(et.lateDay).toBe(nbsp('17. juuni'));
    expect(et.drawOn).toBe(nbsp('20. juunil'));
    expect(et.drawTime).toBe('12.30');
    const en = editionDayTexts(edition, 'en');
    expect(en.range).toBe(`${nbsp('15 May')} – ${nbsp('14 June')}`);
    expect(en.span).toBe(`${nbsp('15 May')} to ${nbsp('14 June')}`);
  });
});
