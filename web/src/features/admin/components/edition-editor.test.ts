import { edition2025 } from '@sinilill/domain/seed';
import i18next, { type i18n } from 'i18next';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import commonEn from '../../../app/locales/en.json';
import commonEt from '../../../app/locales/et.json';
import errorsEn from '../../../lib/errors/locales/en.json';
import errorsEt from '../../../lib/errors/locales/et.json';
import adminEn from '../locales/en.json';
import adminEt from '../locales/et.json';
import { draftFromEdition } from '../utils/edition-form';
import { EditionEditor, type EditionEditorProps } from './edition-editor';

/** An i18next instance of its own with the console's texts in `lng`. */
async function translator(lng: 'et' | 'en'): Promise<i18n> {
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({
    lng,
    resources: { et: { common: commonEt, errors: errorsEt, admin: adminEt }, en: { common: commonEn, errors: errorsEn, admin: adminEn } },
    ns: ['common', 'errors', 'admin'],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
  });
  return instance;
}

async function render(lng: 'et' | 'en', mode: EditionEditorProps['mode']): Promise<string> {
  const props: EditionEditorProps = { mode, initial: draftFromEdition(edition2025, lng), onSaved: () => undefined, onCancel: () => undefined };
  return renderToStaticMarkup(createElement(I18nextProvider, { i18n: await translator(lng) }, createElement(EditionEditor, props)));
}

describe('the edition form', () => {
  for (const lng of ['et', 'en'] as const) {
    it(`has a text for every label in ${lng === 'et' ? 'Estonian' : 'English'}`, async () => {
      const html = await render(lng, 'new');
      // An untranslated key shows itself: "editions.fields.year".
      expect(html.match(/editions\.[a-zA-Z.]+/g) ?? []).toEqual([]);
    });
  }

  it('shows every mission of the route as a row, its length in the page’s language', async () => {
    const html = await render('et', 'edit');
    expect(html.match(/data-testid="edition-mission-row"/g)).toHaveLength(edition2025.route.missions.length);
    const decimal = edition2025.route.missions.find((m) => !Number.isInteger(m.distance));
    if (decimal) expect(html).toContain(`value="${String(decimal.distance).replace('.', ',')}"`);
    expect(html).toContain('data-testid="edition-save"');
  });

  it('opens a closed edition read-only: no save, no upload, no row buttons, every input read-only', async () => {
    const html = await render('en', 'view');
    expect(html).toContain('data-testid="edition-read-only"');
    expect(html).not.toContain('data-testid="edition-save"');
    expect(html).not.toContain('data-testid="edition-upload"');
    expect(html).not.toContain('data-testid="edition-mission-add"');
    const inputs = html.match(/<input[^>]*>/g) ?? [];
    expect(inputs.length).toBeGreaterThan(edition2025.route.missions.length);
    expect(inputs.filter((input) => !/readOnly=""/.test(input))).toEqual([]);
  });

  it('keeps the year of an edition being changed', async () => {
    const html = await render('et', 'edit');
    expect(html).toMatch(/<input[^>]*readOnly=""[^>]*data-testid="edition-field-year"/);
  });
});
