import { useTranslation } from 'react-i18next';
import { formatEuros } from '../../../lib/format-money';
import { useSessionStore } from '../../../lib/session-store';
import { useLang } from '../../../lib/use-lang';
import { getFundraising } from '../api/get-fundraising';
import { useFetched } from '../../../lib/use-fetched';
import { centsOfEuros } from '../utils/amount';
import { teamRaisedCents } from '../utils/fundraising';
import styles from './pay.module.css';

/**
 * Money raised so far (GET /api/fundraising, succeeded fees and donations, in EUR): the
 * overall total and the logged-in participant's team's. Read on every visit of the page, so a
 * reload shows a payment that has just gone through. Left out while loading and when the call
 * fails: the page works without it.
 */
export function FundraisingTotals() {
  const { t } = useTranslation('pay');
  const lang = useLang();
  const teamId = useSessionStore((s) => s.identity.teamId);
  const fundraising = useFetched(getFundraising);
  if (fundraising.status !== 'ready') return null;

  const teamCents = teamRaisedCents(fundraising.data, teamId);
  return (
    <section aria-labelledby="fundraising-heading" data-testid="fundraising-totals">
      <h2 id="fundraising-heading" className={styles.heading}>
        {t('fundraising.heading')}
      </h2>
      <dl className={styles.details}>
        <div>
          <dt>{t('fundraising.total')}</dt>
          <dd data-testid="fundraising-total">{formatEuros(centsOfEuros(fundraising.data.total), lang)}</dd>
        </div>
        {teamCents !== null && (
          <div>
            <dt>{t('fundraising.team')}</dt>
            <dd data-testid="fundraising-team-total">{formatEuros(teamCents, lang)}</dd>
          </div>
        )}
      </dl>
    </section>
  );
}
