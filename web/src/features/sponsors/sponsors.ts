/**
 * The supporters page's seven sponsors (spec §2 "Supporters", spec §3 "Sponsor": id, description,
 * link, logo), main supporter first.
 *
 * ILLUSTRATIVE STAND-INS: the spec does not name the real sponsors. Every organisation below is
 * fictional (names, descriptions, logos and example.ee addresses alike) and is replaced by the
 * organiser's own list before the site goes public: edit this file and the SVG logos in
 * web/src/assets/supporters/, and MAIN_SUPPORTER in lib/organisation.ts for the footer.
 */
import hobepaju from '../../assets/supporters/hobepaju-taastuskeskus.svg';
import kiirkanna from '../../assets/supporters/kiirkanna-rattakeskus.svg';
import pilvepiima from '../../assets/supporters/pilvepiima-meierei.svg';
import pohjakaare from '../../assets/supporters/pohjakaare-logistika.svg';
import rabarebase from '../../assets/supporters/rabarebase-pagarikoda.svg';
import tahesaju from '../../assets/supporters/tahesaju-spordiklubi.svg';
import { MAIN_SUPPORTER } from '../../lib/organisation';
import type { Language } from '@sinilill/contracts';

export interface Sponsor {
  id: string;
  name: string;
  /** The sponsor's website, opened in a new tab. */
  link: string;
  /** URL of the logo image (an SVG with the name in it). */
  logo: string;
  description: Record<Language, string>;
  /** The main supporter: shown first and larger, and in the footer. */
  main?: boolean;
}

export const SPONSORS: readonly Sponsor[] = [
  {
    id: MAIN_SUPPORTER.id,
    name: MAIN_SUPPORTER.name,
    link: MAIN_SUPPORTER.url,
    logo: MAIN_SUPPORTER.logo,
    main: true,
    description: {
      et: 'Sinilille peatoetaja. Kivikaare Kindlustus toetas ürituse korraldamist ja auhinnaloosi ning kutsus oma töötajad tiimidega kaasa liikuma.',
      en: 'Sinilill’s main supporter. Kivikaare Kindlustus supported the organisation of the event and the prize draw, and invited its staff to join in with their own teams.',
    },
  },
  {
    id: 'rabarebase-pagarikoda',
    name: 'Rabarebase Pagarikoda OÜ',
    link: 'https://rabarebase.example.ee',
    logo: rabarebase,
    description: {
      et: 'Väike perepagarikoda, mis küpsetas auhinnaloosi võitjatele kringlid.',
      en: 'A small family bakery that baked kringles for the winners of the prize draw.',
    },
  },
  {
    id: 'kiirkanna-rattakeskus',
    name: 'Kiirkanna Rattakeskus OÜ',
    link: 'https://kiirkanna.example.ee',
    logo: kiirkanna,
    description: {
      et: 'Rattapood ja -töökoda, mis pani auhinnaloosi välja rattahoolduse kinkekaardid.',
      en: 'A bicycle shop and workshop that gave bike service gift cards to the prize draw.',
    },
  },
  {
    id: 'hobepaju-taastuskeskus',
    name: 'Hõbepaju Taastuskeskus OÜ',
    link: 'https://hobepaju.example.ee',
    logo: hobepaju,
    description: {
      et: 'Taastusravikeskus, mille füsioterapeudid jagasid osalejatele nõuandeid, kuidas liikuda valutult ja vigastusteta.',
      en: 'A rehabilitation centre whose physiotherapists shared advice with participants on moving without pain or injury.',
    },
  },
  {
    id: 'tahesaju-spordiklubi',
    name: 'Tähesaju Spordiklubi MTÜ',
    link: 'https://tahesaju.example.ee',
    logo: tahesaju,
    description: {
      et: 'Spordiklubi, mis kutsus oma liikmed Sinilille tiimidesse ja pani auhinnaloosi välja treeningpaketid.',
      en: 'A sports club that encouraged its members to join Sinilill teams and gave training packages to the prize draw.',
    },
  },
  {
    id: 'pohjakaare-logistika',
    name: 'Põhjakaare Logistika AS',
    link: 'https://pohjakaare.example.ee',
    logo: pohjakaare,
    description: {
      et: 'Logistikaettevõte, mis toimetas auhinnad üle Eesti võitjateni tasuta kohale.',
      en: 'A logistics company that delivered the prizes to winners all over Estonia free of charge.',
    },
  },
  {
    id: 'pilvepiima-meierei',
    name: 'Pilvepiima Meierei OÜ',
    link: 'https://pilvepiima.example.ee',
    logo: pilvepiima,
    description: {
      et: 'Meierei, mis pani auhinnaloosi välja kinkekorvid oma toodetega.',
      en: 'A dairy that gave gift baskets of its products to the prize draw.',
    },
  },
];
