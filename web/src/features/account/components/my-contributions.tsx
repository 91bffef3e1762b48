import type { ContributionMission, ParticipantContributionsAnswer } from '@sinilill/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ui/form/alert';
import { ApiError } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format-date';
import { formatDistance } from '../../../lib/format-number';
import { useLang } from '../../../lib/use-lang';
import { getContributions } from '../api/get-contributions';
import styles from './my-contributions.module.css';

type Load = { status: 'loading' } | { status: 'done'; answer: ParticipantContributionsAnswer } | { status: 'error'; code: string };

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

/**
 * "My contributions" on the account page: each of the participant's live entries
 * with what it did to the team (km, blue flowers gained, missions reached), as
 * GET /api/participant/{id}/contributions folds them from the event log.
 */
export function MyContributions({ participantId }: { participantId: number }) {
  const { t } = useTranslation('account');
  const lang = useLang();
  const [load, setLoad] = useState<Load>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    setLoad({ status: 'loading' });
    getContributions(participantId, controller.signal).then(
      (answer) => setLoad({ status: 'done', answer }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoad({ status: 'error', code: error instanceof ApiError ? error.code : 'GENERIC_ERROR' });
      },
    );
    return () => controller.abort();
  }, [participantId]);

  const mission = (m: ContributionMission) =>
    m.lap > 1 ? t('contributions.missionLap', { id: m.id, name: m.name[lang], lap: m.lap }) : t('contributions.mission', { id: m.id, name: m.name[lang] });

  return (
    <section className={styles.section} aria-labelledby="contributions-heading" data-testid="my-contributions">
      <h2 id="contributions-heading" className={styles.heading}>
        {t('contributions.heading')}
      </h2>
      <p>{t('contributions.intro')}</p>
      {load.status === 'loading' && <p aria-live="polite">{t('contributions.loading')}</p>}
      {load.status === 'error' && <ErrorAlert code={load.code} />}
      {load.status === 'done' && load.answer.contributions.length === 0 && <p>{t('contributions.empty')}</p>}
      {load.status === 'done' && load.answer.contributions.length > 0 && (
        <ul className={styles.list}>
          {load.answer.contributions.map((row) => (
            <li key={row.entryId} className={styles.item} data-testid="my-contribution-row" data-entry-id={row.entryId}>
              <span className={styles.figures}>
                <strong>{formatDate(row.performedAt, lang)}</strong>
                <span>{t('contributions.km', { km: formatDistance(row.distance, lang) })}</span>
                <span>{t('contributions.flowersGained', { value: signed(row.contribution.blueFlowers.gained) })}</span>
              </span>
              <span>
                {t('contributions.missions')}:{' '}
                {row.contribution.missionsReached.length > 0 ? row.contribution.missionsReached.map(mission).join('; ') : t('contributions.none')}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
