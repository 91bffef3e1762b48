/**
 * The guide's screenshots, one set per language (spec §2 "Guide": screenshots differ by
 * language). Real screenshots of this app, made by web/scripts/guide-screenshots.ts (run it
 * again after the pages change: `npx tsx web/scripts/guide-screenshots.ts`), which also writes
 * their pixel sizes to assets/sizes.json.
 */
import type { Language } from '@sinilill/contracts';
import progressEn from './assets/en/progress.webp';
import registerEn from './assets/en/register.webp';
import progressEt from './assets/et/progress.webp';
import registerEt from './assets/et/register.webp';
import sizes from './assets/sizes.json';

export type ScreenshotId = keyof typeof sizes;

export interface Screenshot {
  src: string;
  width: number;
  height: number;
}

const SOURCES: Record<ScreenshotId, Record<Language, string>> = {
  register: { et: registerEt, en: registerEn },
  progress: { et: progressEt, en: progressEn },
};

/** The screenshot `id` in the page's language. */
export function screenshot(id: ScreenshotId, lang: Language): Screenshot {
  return { src: SOURCES[id][lang], ...sizes[id][lang] };
}
