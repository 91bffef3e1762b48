import i18next from 'i18next';
import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import homeEn from '../../home/locales/en.json';
import homeEt from '../../home/locales/et.json';
import { edition2026Demo } from '@sinilill/domain/seed';
import { NextEditionNotice } from '../../home/components/home-page';
import { editionView } from '../../../lib/test-editions';
import historyEn from '../locales/en.json';
import historyEt from '../locales/et.json';
import { ArchiveDraw, ArchiveFigures } from './archived-edition-page';

/** The markup of `element` in `lng`, with the history and home texts (an i18next instance of its own). */
async function render(element: ReactElement, lng: 'et' | 'en'): Promise<string> {
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({
    lng,
    resources: { et: { history: historyEt, home: homeEt }, en: { history: historyEn, home: homeEn } },
    ns: ['history', 'home'],
    interpolation: { escapeValue: false },
  });
  const html = renderToStaticMarkup(createElement(I18nextProvider, { i18n: instance }, element));
  // Plain text with ordinary spaces, to compare with what a reader sees.
  return html.replace(/<[^>]+>/g, ' ').replace(/[\u00a0\u202f]/g, ' ').replace(/\s+/g, ' ').trim();
}

const figures = { participants: 1234, teams: 56, km: 98765.43, flowers: 321, raisedCents: 1234550 };

describe('the archive page of a closed edition', () => {
  it('shows the final figures with numbers in Estonian', async () => {
    const text = await render(createElement(ArchiveFigures, { figures, lang: 'et' }), 'et');
    expect(text).toContain('Osalejaid 1 234');
    expect(text).toContain('Tiime 56');
    expect(text).toContain('Läbitud kokku 98 765,43 km');
    expect(text).toContain('Korjatud sinililli 321');
    expect(text).toMatch(/Kogutud raha 12 345,50 €/);
  });

  it('shows the final figures with numbers in English', async () => {
    const text = await render(createElement(ArchiveFigures, { figures, lang: 'en' }), 'en');
    expect(text).toContain('Participants 1 234');
    expect(text).toContain('Travelled in total 98 765.43 km');
    expect(text).toMatch(/Money raised €12 345.50/);
  });

  it('lists the draw winners, says when a name was erased, and when there was no draw', async () => {
    const draw = { winners: [{ teamName: 'Kiired', participantName: 'Mari' }, { teamName: 'Aeglased', participantName: null }] };
    expect(await render(createElement(ArchiveDraw, { draw }), 'et')).toBe('Mari (Kiired) nimi kustutatud (Aeglased)');
    expect(await render(createElement(ArchiveDraw, { draw }), 'en')).toBe('Mari (Kiired) name erased (Aeglased)');
    expect(await render(createElement(ArchiveDraw, { draw: null }), 'en')).toBe('There is no prize draw on record for this year.');
    expect(await render(createElement(ArchiveDraw, { draw: { winners: [] } }), 'et')).toBe('Loosis võitjaid ei olnud.');
  });
});

describe('the home page between editions', () => {
  const next = editionView(edition2026Demo, { phase: 'upcoming', registrationOpen: false });

  it('says when the next edition opens its registration, in the page language', async () => {
    expect(await render(createElement(NextEditionNotice, { next }), 'et')).toBe(
      'Sinilill 2026 registreerumine algab 01.03.2026 Liikumiskuu kestab 01.04.2026–30.04.2026. Kutsu juba praegu sõbrad kaasa!',
    );
    expect(await render(createElement(NextEditionNotice, { next }), 'en')).toBe(
      'Registration for Sinilill 2026 opens on 1 March 2026 The month of moving runs from 1 April 2026 to 30 April 2026. Invite your friends along now!',
    );
  });

  it('says the next edition is still to be announced when there is none', async () => {
    expect(await render(createElement(NextEditionNotice, { next: null }), 'et')).toBe('Järgmise Sinilille aeg kuulutatakse peagi välja.');
  });
});
