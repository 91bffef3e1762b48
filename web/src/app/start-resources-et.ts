/**
 * The start namespaces (resources.ts) in Estonian: a chunk of their own, like English's, so that
 * a page downloads the first page's texts of its own language only. Loaded through resources.ts
 * startResources; the HTML asks for it early (vite.config.ts).
 */
import commonEt from './locales/et.json';
import errorsEt from '../lib/errors/locales/et.json';
import homeEt from '../features/home/locales/et.json';

/** common, errors and home in Estonian: the reference shape of the start namespaces. */
export const startResourcesEt = { common: commonEt, errors: errorsEt, home: homeEt };
