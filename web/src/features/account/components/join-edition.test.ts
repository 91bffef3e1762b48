import { edition2026Demo } from '@sinilill/domain/seed';
import i18next, { type i18n } from 'i18next';
import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import commonEn from '../../../app/locales/en.json';
import commonEt from '../../../app/locales/et.json';
import errorsEn from '../../../lib/errors/locales/en.json';
import errorsEt from '../../../lib/errors/locales/et.json';
import type { EditionView } from '../../../lib/edition';
import accountEn from '../locales/en.json';
import accountEt from '../locales/et.json';
import { JoinForm } from './join-edition';

const edition: EditionView = { year: 2026, status: 'opened', phase: 'registration', registrationOpen: true, today: '2026-03-10', edition: edition2026Demo };

async function translator(lng: 'et' | 'en'): Promise<i18n> {
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({
    lng,
    resources: { et: { common: commonEt, errors: errorsEt, account: accountEt }, en: { common: commonEn, errors: errorsEn, account: accountEn } },
    ns: ['common', 'errors', 'account'],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
  });
  return instance;
}

async function render(lng: 'et' | 'en', element: ReactElement): Promise<string> {
  return renderToStaticMarkup(createElement(I18nextProvider, { i18n: await translator(lng) }, element));
}

describe('joining the next edition', () => {
  it('offers last year’s team by name, a new team and a join code, with the new edition’s fees, in Estonian', async () => {
    const html = await render('et', createElement(JoinForm, { edition, lastTeam: { id: 12, name: 'Kiired Konnad' }, onJoined: () => undefined }));
    expect(html).toContain('Liitu: Sinilill 2026');
    expect(html).toContain('Jätkan eelmise aasta tiimiga „Kiired Konnad“');
    expect(html).toContain('value="newTeam"');
    expect(html).toContain('value="joinCode"');
    expect(html).toContain('20,00 €');
    expect(html.match(/join\.[a-zA-Z]+/g) ?? []).toEqual([]);
  });

  it('says the same in English', async () => {
    const html = await render('en', createElement(JoinForm, { edition, lastTeam: { id: 12, name: 'Fast Frogs' }, onJoined: () => undefined }));
    expect(html).toContain('Keep last year&#x27;s team “Fast Frogs”');
    expect(html).toContain('€20.00');
    expect(html.match(/join\.[a-zA-Z]+/g) ?? []).toEqual([]);
  });
});
