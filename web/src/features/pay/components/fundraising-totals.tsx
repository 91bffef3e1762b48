import { useTranslation } from 'react-i18next';
import { useSessionStore } from '../../../lib/session-store';
import { useMoneyRaised } from '../../../lib/use-money-raised';
import { getFundraising } from '../api/get-fundraising';
import { queryKeys } from '../../../lib/query-client';
import { useFetched } from '../../../lib/use-fetched';
import { centsOfEuros } from '../utils/amount';
import { teamRaisedCents } from '../utils/fundraising';
import styles from './pay.module.css';

/**
 * Money raised so far (GET /api/fundraising, succeeded fees and donations, in EUR): the
 * overall total and the logged-in participant's team's, each "at least" while some paid fees'
 * amounts are unknown (the answer's unknownCount). Read on every visit of the page, so a
 * reload shows a payment that has just gone through. Left out while loading and when the call
 * fails: the page works without it.
 */
export function FundraisingTotals() {
  const { t } = useTranslation('pay');
  const moneyRaised = useMoneyRaised();
  const teamId = useSessionStore((s) => s.identity.teamId);
  const fundraising = useFetched(queryKeys.fundraising, getFundraising);
  if (fundraising.status !== 'ready') return null;

  const teamCents = teamRaisedCents(fundraising.data, teamId);
  const total = moneyRaised(centsOfEuros(fundraising.data.total), fundraising.data.unknownCount);
  const team = moneyRaised(teamCents ?? 0, fundraising.data.teams.find((row) => row.teamId === teamId)?.unknownCount);
  return (
    <section aria-labelledby="fundraising-heading" data-testid="fundraising-totals">
      <h2 id="fundraising-heading" className={styles.heading}>
        {t('fundraising.heading')}
      </h2>
      <dl className={styles.details}>
        <div>
          <dt>{t('fundraising.total')}</dt>
          <dd data-testid="fundraising-total" title={total.note}>
            {total.text}
          </dd>
        </div>
        {teamCents !== null && (
          <div>
            <dt>{t('fundraising.team')}</dt>
            <dd data-testid="fundraising-team-total" title={team.note}>
              {team.text}
            </dd>
          </div>
        )}
      </dl>
    </section>
  );
}
