import type { AdminSettingsBody, SettingsAnswer } from '@sinilill/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, ErrorAlert } from '../../../../components/ui/form/alert';
import formStyles from '../../../../components/ui/form/form.module.css';
import { Spinner } from '../../../../components/ui/spinner';
import { useSettingsStore } from '../../../../lib/settings-store';
import { useAction } from '../../../../lib/use-action';
import { ALERT_MS, useTimedValue } from '../../../../lib/use-timed-value';
import { changeSettings, getSettings } from '../api/operations';
import { useLoad } from '../api/use-load';
import { AuditSection } from './audit-section';
import styles from './audit.module.css';

type SwitchName = keyof Required<AdminSettingsBody>;

const SWITCHES: readonly { name: SwitchName; label: 'registration' | 'entries'; testId: string }[] = [
  { name: 'registrationEnabled', label: 'registration', testId: 'switch-registration' },
  { name: 'entryInsertionEnabled', label: 'entries', testId: 'switch-entries' },
];

/**
 * The global switches (spec §4 "entry insertion and registration are each globally
 * switchable"): registration and entry insertion, read from GET /api/settings and
 * changed with PUT /api/admin/settings. A switch moves only once the server has confirmed
 * (spec §4 "Admin toggles update local state only after the server reports success"); success
 * shows a green alert for 2 s (spec §9), failure the catalogue's red alert. The app-wide
 * settings store is updated too, so the rest of the page (the register link) follows at once.
 */
export function SettingsSwitches() {
  const { t } = useTranslation('adminAudit');
  const baseId = useId();
  const { state, load } = useLoad<SettingsAnswer>();
  // What the server confirmed since the first read (null until a change).
  const [confirmed, setConfirmed] = useState<SettingsAnswer | null>(null);
  const settings = confirmed ?? (state.status === 'ready' ? state.data : null);
  const change = useAction(changeSettings);
  // The switch being saved: it says so, and no switch takes a click meanwhile.
  const [pending, setPending] = useState<SwitchName | null>(null);
  const [saved, showSaved, clearSaved] = useTimedValue<true>(ALERT_MS);
  // Only the newest change's follow-up read may replace what is shown.
  const changes = useRef(0);

  useEffect(() => {
    void load((signal) => getSettings(undefined, signal));
  }, [load]);

  const publish = (next: SettingsAnswer) => {
    setConfirmed(next);
    useSettingsStore.setState({ status: 'ready', settings: next });
  };

  const toggle = async (name: SwitchName) => {
    if (!settings || pending !== null) return;
    const value = !settings[name];
    setPending(name);
    clearSaved();
    const sequence = ++changes.current;
    const outcome = await change.run({ [name]: value });
    setPending(null);
    if (!outcome.ok) return;
    publish({ ...settings, [name]: value });
    showSaved(true);
    // entriesOpen also depends on the deadline, which only the server knows: read the switches
    // back once the read model has the change.
    getSettings(outcome.result.position).then(
      (fresh) => {
        if (sequence === changes.current) publish(fresh);
      },
      () => undefined,
    );
  };

  return (
    <AuditSection level={2} heading={t('operations.switches.heading')} intro={t('operations.switches.intro')} testId="settings-switches">
      {state.status === 'loading' && <Spinner label={t('loading')} color="var(--brand)" />}
      {state.status === 'error' && <ErrorAlert code={state.code} />}
      {settings && (
        <ul className={styles.plainList}>
          {SWITCHES.map(({ name, label, testId }) => {
            const on = settings[name];
            const labelId = `${baseId}-${name}`;
            const hintId = `${labelId}-hint`;
            return (
              <li key={name} className={styles.switchRow}>
                <div className={styles.switchText}>
                  <span id={labelId} className={styles.switchLabel}>
                    {t(`operations.switches.${label}`)}
                  </span>
                  <span id={hintId} className={formStyles.hint}>
                    {t(`operations.switches.${label}Hint`)}
                  </span>
                  {name === 'entryInsertionEnabled' && on && !settings.entriesOpen && (
                    <span className={formStyles.hint} data-testid="switch-entries-deadline">
                      {t('operations.switches.deadlinePassed')}
                    </span>
                  )}
                </div>
                {/* The state's word stands beside the button, not in it: the button's name is the
                    switch's label alone (aria-pressed says on or off), and a visible word inside
                    a button must be part of its name (WCAG 2.5.3, label in name). */}
                <div className={styles.toggleGroup}>
                  <button
                    type="button"
                    className={styles.toggle}
                    aria-pressed={on}
                    aria-labelledby={labelId}
                    aria-describedby={hintId}
                    aria-busy={pending === name}
                    // Not disabled, which would drop the keyboard focus while the change is saved.
                    aria-disabled={pending !== null}
                    onClick={() => void toggle(name)}
                    data-testid={testId}
                  >
                    <span className={formStyles.switchTrack} aria-hidden="true" />
                  </button>
                  <span className={styles.toggleState} aria-hidden="true">
                    {pending === name ? t('operations.switches.saving') : on ? t('operations.switches.on') : t('operations.switches.off')}
                  </span>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {change.state.status === 'error' && <ErrorAlert code={change.state.code} />}
      {saved && <Alert variant="success">{t('operations.switches.saved')}</Alert>}
    </AuditSection>
  );
}
