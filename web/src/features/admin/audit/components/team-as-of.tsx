import type { TeamAsOfAnswer } from '@sinilill/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, ErrorAlert } from '../../../../components/ui/form/alert';
import formStyles from '../../../../components/ui/form/form.module.css';
import { Spinner } from '../../../../components/ui/spinner';
import { useLang } from '../../../../lib/use-lang';
import { useNumberFormat } from '../../../../lib/use-number-format';
import { getTeamAsOf } from '../api/history';
import { useLoad } from '../api/use-load';
import { isoToLocalInput, localInputToIso, formatAuditTime } from '../utils/tallinn-time';
import { AuditField } from './audit-field';
import { AuditSection } from './audit-section';
import styles from './audit.module.css';

export interface TeamAsOfProps {
  /**
   * The team to compute for: the history filter's team number when it is valid; otherwise
   * null, and the filter field says what is missing.
   */
  requireTeamId: () => string | null;
}

/**
 * "As of": a team's figures at a past moment, folded by the server from the events
 * recorded up to then (GET /api/admin/history/team/{id}/as-of): members, distance in km (rounded
 * as spec §4 and exact), prestige, in-lap km and blue flowers. The moment is a Europe/Tallinn
 * date-time (input `asOf`), sent as an ISO instant; it starts at the current minute.
 */
export function TeamAsOf({ requireTeamId }: TeamAsOfProps) {
  const { t } = useTranslation('adminAudit');
  const lang = useLang();
  const format = useNumberFormat();
  const [asOf, setAsOf] = useState(() => isoToLocalInput(new Date().toISOString()) ?? '');
  const [invalid, setInvalid] = useState(false);
  const { state, load } = useLoad<TeamAsOfAnswer>();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const at = localInputToIso(asOf);
    setInvalid(at === null);
    const teamId = requireTeamId();
    if (at === null || teamId === null) return;
    void load((signal) => getTeamAsOf(teamId, at, signal));
  };

  const figures = state.status === 'ready' ? state.data : null;
  return (
    <AuditSection level={3} heading={t('history.asOf.heading')} intro={t('history.asOf.intro')} testId="history-as-of">
      <form className={styles.inlineForm} noValidate onSubmit={onSubmit} aria-label={t('history.asOf.heading')}>
        <AuditField label={t('history.asOf.at')} problem={invalid ? t('history.filters.problems.invalidDateTime') : undefined}>
          {(control) => (
            <input {...control} name="asOf" type="datetime-local" className={formStyles.input} value={asOf} onChange={(event) => setAsOf(event.target.value)} />
          )}
        </AuditField>
        <button type="submit" className={formStyles.button} disabled={state.status === 'loading'} data-testid="history-as-of-submit">
          {t('history.asOf.submit')}
        </button>
      </form>
      {state.status === 'loading' && <Spinner label={t('loading')} color="var(--brand)" />}
      {state.status === 'error' &&
        (state.code === 'NOT_FOUND' ? <Alert variant="error">{t('history.asOf.notFound')}</Alert> : <ErrorAlert code={state.code} />)}
      {figures && (
        <dl className={styles.figures} data-testid="history-as-of-result" aria-live="polite">
          <Figure label={t('history.asOf.team')} value={`${figures.teamName} (${figures.teamId})`} testId="as-of-team" />
          <Figure label={t('history.asOf.moment')} value={formatAuditTime(figures.at, lang)} testId="as-of-at" />
          <Figure label={t('history.asOf.participants')} value={format(figures.participants)} testId="as-of-participants" />
          <Figure label={t('history.asOf.distance')} value={format(figures.distance)} testId="as-of-distance" />
          <Figure label={t('history.asOf.distanceExact')} value={format(figures.distanceExact, 2)} testId="as-of-distance-exact" />
          <Figure label={t('history.asOf.prestige')} value={format(figures.prestige)} testId="as-of-prestige" />
          <Figure label={t('history.asOf.inLapDistance')} value={format(figures.inLapDistance, 2)} testId="as-of-in-lap" />
          <Figure label={t('history.asOf.blueFlowers')} value={format(figures.blueFlowers)} testId="as-of-blue-flowers" />
        </dl>
      )}
    </AuditSection>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className={styles.figure}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}
