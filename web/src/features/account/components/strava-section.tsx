import { ACTIVITY_TYPES, type ActivityType } from '@sinilill/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, ErrorAlert } from '../../../components/ui/form/alert';
import { RadioGroup } from '../../../components/ui/form/field';
import formStyles from '../../../components/ui/form/form.module.css';
import { errorText } from '../../../lib/errors/catalogue';
import { formatDateTime, formatDay } from '../../../lib/format-date';
import { formatDistance } from '../../../lib/format-number';
import { queryKeys } from '../../../lib/query-client';
import { useAction } from '../../../lib/use-action';
import { useLang } from '../../../lib/use-lang';
import {
  confirmStravaProposal, connectStrava, disconnectStrava, dismissStravaProposal, setStravaMode, useStrava,
  type StravaAnswer, type StravaConnection, type StravaMode, type StravaProposal,
} from '../api/strava';
import styles from './account.module.css';
import ownStyles from './strava.module.css';

/** How the participant came back from Strava's authorize page: the callback's `?strava=` and, for an error, `&reason=` (a catalogue code). */
export interface StravaReturn {
  outcome: 'connected' | 'denied' | 'error';
  reason?: string;
}

export interface StravaSectionProps {
  /** Set once when the page was opened by the callback's redirect; the message stays until the page is left. */
  returned?: StravaReturn;
}

/**
 * "Strava" on the account page: absent when the site has no Strava app (GET /api/me/strava
 * answers `available: false`). Not connected: what is synced (the current edition's activities,
 * also those recorded before connecting) and what is read, the choice between adding each
 * activity at once and confirming each, and the "Connect with Strava" button (in Strava's orange,
 * as their brand guidelines ask), which sends the browser to Strava's authorize page. Connected:
 * the athlete, the mode, the last sync, the activities waiting for confirmation (type, km, day;
 * confirm or dismiss) and "Disconnect". Revoked on Strava's side or disconnected here: its own
 * message and the connect button again. The link is read again every few seconds while connected
 * (api/strava.ts useStrava), so that what Strava's webhook brought shows without a reload.
 */
export function StravaSection({ returned }: StravaSectionProps) {
  const { t } = useTranslation('account');
  const read = useStrava(true);
  const answer = read.data;
  if (!answer?.available) return null;
  const { connection } = answer;
  const connected = connection?.status === 'connected';
  return (
    <section className={styles.section} aria-labelledby="strava-heading" data-testid="strava" data-status={connection?.status ?? 'none'}>
      <h2 id="strava-heading" className={styles.heading}>
        {t('strava.heading')}
      </h2>
      {returned && <ReturnMessage returned={returned} />}
      {connected ? <Connected connection={connection} proposals={answer.proposals} /> : <NotConnected connection={connection} />}
    </section>
  );
}

/** What the return from Strava's authorize page came to, said once (role=status). */
function ReturnMessage({ returned }: { returned: StravaReturn }) {
  const { t } = useTranslation('account');
  const { t: tCommon } = useTranslation();
  const { outcome, reason } = returned;
  return (
    <div role="status" data-testid="strava-return" data-outcome={outcome}>
      <Alert variant={outcome === 'connected' ? 'success' : 'error'} live={false}>
        <p>{t(outcome === 'connected' ? 'strava.returnConnected' : outcome === 'denied' ? 'strava.returnDenied' : 'strava.returnError')}</p>
        {outcome === 'error' && reason !== undefined && <p data-testid="strava-return-reason">{errorText(tCommon, reason)}</p>}
      </Alert>
    </div>
  );
}

/** Writes a changed connection into the cached answer, so that the page shows it before the next read. */
function useStoreConnection() {
  const client = useQueryClient();
  return (connection: StravaConnection) => {
    client.setQueryData<StravaAnswer>(queryKeys.strava, (previous) => (previous ? { ...previous, connection, proposals: connection.status === 'connected' ? previous.proposals : [] } : previous));
    void client.invalidateQueries({ queryKey: queryKeys.strava });
  };
}

function NotConnected({ connection }: { connection: StravaConnection | null }) {
  const { t } = useTranslation('account');
  const [mode, setMode] = useState<StravaMode>(connection?.mode ?? 'auto');
  const connect = useAction(connectStrava);
  const [leaving, setLeaving] = useState(false);

  const start = async () => {
    const outcome = await connect.run(mode);
    if (outcome.ok) {
      setLeaving(true);
      window.location.assign(outcome.result.authorizeUrl);
    }
  };

  const busy = connect.pending || leaving;
  return (
    <>
      {connection?.status === 'deauthorized' && (
        <p className={ownStyles.notice} data-testid="strava-deauthorized">{t('strava.deauthorized')}</p>
      )}
      {connection?.status === 'disconnected' && (
        <p className={ownStyles.notice} data-testid="strava-disconnected">{t('strava.disconnected')}</p>
      )}
      <p>{t('strava.intro')}</p>
      <p>{t('strava.dataRead')}</p>
      <ModeChoice mode={mode} onChange={setMode} />
      {connect.state.status === 'error' && <ErrorAlert code={connect.state.code} />}
      <div className={formStyles.actions}>
        <button type="button" className={ownStyles.connect} onClick={() => void start()} disabled={busy} aria-busy={busy} data-testid="strava-connect">
          {busy ? t('strava.connecting') : t('strava.connect')}
        </button>
      </div>
    </>
  );
}

function ModeChoice({ mode, onChange }: { mode: StravaMode; onChange: (mode: StravaMode) => void }) {
  const { t } = useTranslation('account');
  return (
    <RadioGroup
      name="strava-mode"
      legend={t('strava.modeLegend')}
      value={mode}
      onChange={(value) => onChange(value === 'confirm' ? 'confirm' : 'auto')}
      options={[
        { value: 'auto', label: t('strava.modeAuto'), description: t('strava.modeAutoHint') },
        { value: 'confirm', label: t('strava.modeConfirm'), description: t('strava.modeConfirmHint') },
      ]}
    />
  );
}

function Connected({ connection, proposals }: { connection: StravaConnection; proposals: StravaProposal[] }) {
  const { t } = useTranslation('account');
  const { t: tCommon } = useTranslation();
  const lang = useLang();
  const store = useStoreConnection();
  const changeMode = useAction(setStravaMode);
  const disconnect = useAction(disconnectStrava);

  const onMode = async (mode: StravaMode) => {
    if (mode === connection.mode) return;
    const outcome = await changeMode.run(mode);
    if (outcome.ok) store(outcome.result.connection);
  };

  const onDisconnect = async () => {
    const outcome = await disconnect.run();
    if (outcome.ok) store(outcome.result.connection);
  };

  return (
    <>
      <p data-testid="strava-athlete">{t('strava.connectedAs', { name: connection.athleteName })}</p>
      <p data-testid="strava-last-sync">
        {connection.lastSyncAt ? t('strava.lastSync', { time: formatDateTime(connection.lastSyncAt, lang) }) : t('strava.neverSynced')}
      </p>
      {connection.skipped > 0 && (
        <p data-testid="strava-skipped">
          {t('strava.skipped', { count: connection.skipped })}
          {connection.lastError !== null && <> {t('strava.lastReason', { reason: errorText(tCommon, connection.lastError) })}</>}
        </p>
      )}
      <ModeChoice mode={connection.mode} onChange={(mode) => void onMode(mode)} />
      {changeMode.state.status === 'error' && <ErrorAlert code={changeMode.state.code} />}
      {changeMode.state.status === 'success' && <Alert variant="success">{t(connection.mode === 'auto' ? 'strava.modeSavedAuto' : 'strava.modeSavedConfirm')}</Alert>}
      {(connection.mode === 'confirm' || proposals.length > 0) && <Proposals proposals={proposals} />}
      <h3 className={ownStyles.subheading}>{t('strava.disconnectHeading')}</h3>
      <p>{t('strava.disconnectText')}</p>
      {disconnect.state.status === 'error' && <ErrorAlert code={disconnect.state.code} />}
      <div className={formStyles.actions}>
        <button type="button" className={formStyles.buttonSecondary} onClick={() => void onDisconnect()} disabled={disconnect.pending} aria-busy={disconnect.pending} data-testid="strava-disconnect">
          {t('strava.disconnect')}
        </button>
      </div>
    </>
  );
}

function Proposals({ proposals }: { proposals: StravaProposal[] }) {
  const { t } = useTranslation('account');
  return (
    <>
      <h3 className={ownStyles.subheading}>{t('strava.proposalsHeading')}</h3>
      {proposals.length === 0 ? (
        <p data-testid="strava-proposals-empty">{t('strava.proposalsEmpty')}</p>
      ) : (
        <ul className={ownStyles.list} aria-label={t('strava.proposalsHeading')}>
          {proposals.map((proposal) => <ProposalRow key={proposal.activityId} proposal={proposal} />)}
        </ul>
      )}
    </>
  );
}

/** One activity waiting: its name, sport, km and day, a type to confirm it as, Add and Dismiss. */
function ProposalRow({ proposal }: { proposal: StravaProposal }) {
  const { t } = useTranslation('account');
  const { t: tTeam } = useTranslation('team');
  const lang = useLang();
  const typeId = useId();
  const client = useQueryClient();
  const [entryType, setEntryType] = useState(proposal.entryType ?? '');
  const confirm = useAction(confirmStravaProposal);
  const dismiss = useAction(dismissStravaProposal);
  const busy = confirm.pending || dismiss.pending;
  const typeOptions = ACTIVITY_TYPES.map((type: ActivityType) => ({ value: type, label: tTeam(`entryTypes.${type}`) }));
  // A type the server proposed that is no preset (free text) stays choosable as it is.
  const proposed = proposal.entryType !== null && !(ACTIVITY_TYPES as readonly string[]).includes(proposal.entryType) ? [{ value: proposal.entryType, label: proposal.entryType }] : [];

  const refresh = () => {
    void client.invalidateQueries({ queryKey: queryKeys.strava });
    // The entry shows in "What my activities did" too.
    void client.invalidateQueries({ queryKey: ['contributions'] });
  };

  const onConfirm = async () => {
    if (entryType === '') return;
    const outcome = await confirm.run(proposal.activityId, entryType === proposal.entryType ? undefined : entryType);
    if (outcome.ok) refresh();
  };

  const onDismiss = async () => {
    const outcome = await dismiss.run(proposal.activityId);
    if (outcome.ok) refresh();
  };

  return (
    <li className={ownStyles.item} data-testid="strava-proposal" data-activity-id={proposal.activityId}>
      <p className={ownStyles.name}>{proposal.name}</p>
      <p className={ownStyles.figures}>
        <span data-testid="strava-proposal-sport">{proposal.sportType}</span>
        <span data-testid="strava-proposal-distance">{t('strava.km', { km: formatDistance(proposal.distance, lang) })}</span>
        <span data-testid="strava-proposal-day">{formatDay(proposal.performedAt, lang)}</span>
      </p>
      <div className={formStyles.field}>
        <label htmlFor={typeId} className={formStyles.label}>
          {t('strava.type')}
        </label>
        <select id={typeId} className={formStyles.select} value={entryType} onChange={(event) => setEntryType(event.target.value)} disabled={busy} data-testid="strava-proposal-type">
          {entryType === '' && <option value="">{t('strava.chooseType')}</option>}
          {[...proposed, ...typeOptions].map((option) => (
            <option key={option.value} value={option.value}>{option.label}</option>
          ))}
        </select>
      </div>
      {confirm.state.status === 'error' && <ErrorAlert code={confirm.state.code} />}
      {dismiss.state.status === 'error' && <ErrorAlert code={dismiss.state.code} />}
      <div className={formStyles.actions}>
        <button type="button" className={formStyles.button} onClick={() => void onConfirm()} disabled={busy || entryType === ''} aria-busy={confirm.pending} data-testid="strava-proposal-confirm">
          {t('strava.confirm')}
        </button>
        <button type="button" className={formStyles.buttonSecondary} onClick={() => void onDismiss()} disabled={busy} aria-busy={dismiss.pending} data-testid="strava-proposal-dismiss">
          {t('strava.dismiss')}
        </button>
      </div>
    </li>
  );
}
