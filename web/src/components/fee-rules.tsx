import type { Edition } from '@sinilill/domain';
import { useTranslation } from 'react-i18next';
import { formatEuros } from '../lib/format-money';
import { useLang } from '../lib/use-lang';
import { EditionGate } from './edition-gate';
import styles from './fee-rules.module.css';

/**
 * The participation fee by birth year (spec §9: 15 € for those born 2010 or earlier, 5 € for
 * those born 2011 or later) and a company team's fee per person (15 €, whatever the birth year),
 * from the site's edition (nothing while it loads).
 */
export function FeeRules({ headingLevel = 2 }: { headingLevel?: 2 | 3 }) {
  return <EditionGate loading={null}>{(edition) => <FeeRulesOf edition={edition} headingLevel={headingLevel} />}</EditionGate>;
}

function FeeRulesOf({ edition, headingLevel }: { edition: Edition; headingLevel: 2 | 3 }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { fees } = edition;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const rows = [
    { id: 'adult', label: t('fees.adult', { year: fees.childFromBirthYear - 1 }), cents: fees.adultCents },
    { id: 'child', label: t('fees.child', { year: fees.childFromBirthYear }), cents: fees.childCents },
    { id: 'company', label: t('fees.company'), cents: fees.companyPerPersonCents },
  ];
  return (
    <section className={styles.fees} aria-labelledby="fee-rules-heading" data-testid="fee-rules">
      <Heading id="fee-rules-heading" className={styles.heading}>
        {t('fees.heading', { year: edition.year })}
      </Heading>
      <dl className={styles.list}>
        {rows.map((row) => (
          <div key={row.id} className={styles.row} data-testid={`fee-${row.id}`}>
            <dt>{row.label}</dt>
            <dd className={styles.amount}>{formatEuros(row.cents, lang)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
