/**
 * The start namespaces (resources.ts) in English: a chunk of their own, so that an Estonian
 * first page does not download them (nor an English one the Estonian). Loaded through
 * resources.ts startResources; the HTML asks for it early (vite.config.ts).
 */
import commonEn from './locales/en.json';
import errorsEn from '../lib/errors/locales/en.json';
import homeEn from '../features/home/locales/en.json';
import type { startResourcesEt } from './start-resources-et';

/** common, errors and home in English, in the Estonian shape. */
export const startResourcesEn = { common: commonEn, errors: errorsEn, home: homeEn } satisfies typeof startResourcesEt;
