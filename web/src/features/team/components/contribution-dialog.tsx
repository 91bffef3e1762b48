import type { ContributionAnswer, ContributionMission, Entry } from '@sinilill/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ModalDialog } from '../../../components/ui/dialog/modal-dialog';
import { ErrorAlert } from '../../../components/ui/form/alert';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format-date';
import { formatDistance, formatNumber } from '../../../lib/format-number';
import { useLang } from '../../../lib/use-lang';
import { getContribution } from '../api/get-contribution';
import styles from './contribution-dialog.module.css';

type Load = { status: 'loading' } | { status: 'done'; answer: ContributionAnswer } | { status: 'error'; code: string };

/** A signed change: "+3", "−1,50", "0". */
function signed(value: number, format: (n: number) => string): string {
  if (value > 0) return `+${format(value)}`;
  if (value < 0) return `−${format(-value)}`;
  return format(0);
}


export interface ContributionDialogProps {
  /** The entry asked about; null while the dialog is closed. */
  entry: Entry | null;
  onClose: () => void;
}

/**
 * "What this did": a modal dialog (ModalDialog: focus trapped, Esc closes,
 * named by its heading) with what the entry's latest event did to the team — distance, blue
 * flowers and full laps before and after, and the missions reached — as the server folds them
 * from the event log (GET /api/team/{id}/entries/{entryId}/contribution). Mission names in the
 * page's language.
 */
export function ContributionDialog({ entry, onClose }: ContributionDialogProps) {
  const { t } = useTranslation('team');
  const lang = useLang();
  const whole = (n: number) => formatNumber(n, { lang });
  const [load, setLoad] = useState<Load>({ status: 'loading' });

  useEffect(() => {
    if (!entry) return;
    const controller = new AbortController();
    setLoad({ status: 'loading' });
    getContribution(entry.team_id, entry.id, controller.signal).then(
      (answer) => setLoad({ status: 'done', answer }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setLoad({ status: 'error', code: error instanceof ApiError ? error.code : 'GENERIC_ERROR' });
      },
    );
    return () => controller.abort();
  }, [entry]);

  const mission = (m: ContributionMission) =>
    m.lap > 1 ? t('contributions.missionLap', { id: m.id, name: m.name[lang], lap: m.lap }) : t('contributions.mission', { id: m.id, name: m.name[lang] });

  return (
    <ModalDialog open={entry !== null} onClose={onClose} title={t('contributions.title')} testId="contribution-dialog">
      <div aria-live="polite" aria-busy={load.status === 'loading'}>
        {load.status === 'loading' && (
          <div className={styles.loading}>
            <Spinner label={t('contributions.loading')} color="var(--brand)" />
          </div>
        )}
        {load.status === 'error' && <ErrorAlert code={load.code} />}
        {load.status === 'done' && (
          <div className={styles.body} data-testid="contribution">
            <p data-testid="contribution-change">
              {load.answer.change === 'edited'
                ? t('contributions.edited', {
                    date: formatDateTime(load.answer.at, lang),
                    before: formatDistance(load.answer.entryDistance.before ?? 0, lang),
                    after: formatDistance(load.answer.entryDistance.after ?? 0, lang),
                  })
                : t(`contributions.${load.answer.change}`, { date: formatDateTime(load.answer.at, lang) })}
            </p>
            <table className={styles.figures} data-testid="contribution-figures">
              <caption className="sr-only">{t('contributions.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('contributions.figure')}</th>
                  <th scope="col">{t('contributions.before')}</th>
                  <th scope="col">{t('contributions.after')}</th>
                  <th scope="col">{t('contributions.gained')}</th>
                </tr>
              </thead>
              <tbody>
                <tr data-testid="contribution-distance">
                  <th scope="row">{t('contributions.distance')}</th>
                  <td>{formatDistance(load.answer.distanceExact.before, lang)}</td>
                  <td>{formatDistance(load.answer.distanceExact.after, lang)}</td>
                  <td>{signed(load.answer.distanceExact.gained, (km) => formatDistance(km, lang))}</td>
                </tr>
                <tr data-testid="contribution-rounded">
                  <th scope="row">{t('contributions.rounded')}</th>
                  <td>{whole(load.answer.distance.before)}</td>
                  <td>{whole(load.answer.distance.after)}</td>
                  <td>{signed(load.answer.distance.gained, whole)}</td>
                </tr>
                <tr data-testid="contribution-flowers">
                  <th scope="row">{t('contributions.flowers')}</th>
                  <td>{whole(load.answer.blueFlowers.before)}</td>
                  <td>{whole(load.answer.blueFlowers.after)}</td>
                  <td>{signed(load.answer.blueFlowers.gained, whole)}</td>
                </tr>
                <tr data-testid="contribution-laps">
                  <th scope="row">{t('contributions.laps')}</th>
                  <td>{whole(load.answer.prestige.before)}</td>
                  <td>{whole(load.answer.prestige.after)}</td>
                  <td>{signed(load.answer.prestige.gained, whole)}</td>
                </tr>
              </tbody>
            </table>
            {load.answer.prestige.gained > 0 && <p className={styles.highlight}>{t('contributions.lapReached', { lap: load.answer.lap })}</p>}
            <h3 className={styles.subheading}>{t('contributions.missionsHeading')}</h3>
            {load.answer.missionsReached.length > 0 ? (
              <ul className={styles.missions} data-testid="contribution-missions">
                {load.answer.missionsReached.map((m) => (
                  <li key={`${m.lap}-${m.id}`}>{mission(m)}</li>
                ))}
              </ul>
            ) : (
              <p data-testid="contribution-no-missions">{t('contributions.noMissions')}</p>
            )}
            {load.answer.missionsLost.length > 0 && (
              <>
                <h3 className={styles.subheading}>{t('contributions.missionsLostHeading')}</h3>
                <ul className={styles.missions} data-testid="contribution-missions-lost">
                  {load.answer.missionsLost.map((m) => (
                    <li key={`${m.lap}-${m.id}`}>{mission(m)}</li>
                  ))}
                </ul>
              </>
            )}
          </div>
        )}
      </div>
    </ModalDialog>
  );
}
