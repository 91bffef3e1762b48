import { useTranslation } from 'react-i18next';
import { useAction } from '../../../../lib/use-action';
import { downloadTableCsv } from '../../api/export-csv';
import type { ConsoleTab } from './console-tab';
import formStyles from '../../../../components/ui/form/form.module.css';

/**
 * "Download CSV": the tab's every row matching its search, in its sort, as a
 * CSV file (GET /api/admin/{table}.csv). One download at a time; the saved file's name shows in
 * the tab's green alert for 2 s, a failure in its red alert. Test id `admin-csv`.
 */
export function CsvDownload<T>({ tab }: { tab: ConsoleTab<T> }) {
  const { t } = useTranslation('admin');
  const download = useAction(downloadTableCsv);
  const { success, failure, clear } = tab.notice;

  async function run() {
    clear();
    const outcome = await download.run(tab.exportTable, tab.exportQuery);
    if (outcome.ok) success(t('csv.saved', { filename: outcome.result }));
    else if (outcome.code !== null) failure(outcome.code);
  }

  return (
    <button
      type="button"
      className={formStyles.buttonSecondary}
      onClick={() => void run()}
      disabled={download.pending}
      aria-busy={download.pending}
      data-testid="admin-csv"
    >
      {download.pending ? t('csv.preparing') : t('csv.button')}
    </button>
  );
}
