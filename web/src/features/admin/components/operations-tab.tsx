import { ParkedEventsPanel } from '../audit/components/parked-events-panel';
import { QueueBoardButton } from '../audit/components/queue-board-button';
import { ReplayPanel } from '../audit/components/replay-panel';
import { SettingsSwitches } from '../audit/components/settings-switches';
import styles from '../audit/components/audit.module.css';

/**
 * The operations tab: the global switches (registration, entry insertion; spec §4),
 * the replay of the read models with live progress and its totals before and after, the events
 * the projections parked with retry and skip, and the way into the queue dashboard
 * (Bull Board). Administrators only; the server refuses anyone else.
 */
export function OperationsTab() {
  return (
    <div className={styles.tab}>
      <SettingsSwitches />
      <ReplayPanel />
      <ParkedEventsPanel />
      <QueueBoardButton />
    </div>
  );
}
