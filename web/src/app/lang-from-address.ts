/**
 * Imported first by main.tsx, before any module that reads the stored language (the language
 * store reads it when it is created): a link's `?lang=` becomes the stored choice first.
 */
import { takeLangFromAddress } from '../lib/language';

/** The language the address asked for, or null (see takeLangFromAddress). */
export const langFromAddress = takeLangFromAddress();
