import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, ErrorAlert } from '../../../../components/ui/form/alert';
import formStyles from '../../../../components/ui/form/form.module.css';
import { useAction } from '../../../../lib/use-action';
import { ALERT_MS, useTimedValue } from '../../../../lib/use-timed-value';
import { downloadHistoryExport } from '../api/history';
import { EXPORT_FORMATS, type ExportFormat } from '../utils/download';
import type { HistoryFilterQuery } from '../utils/history-filters';
import { AuditSection } from './audit-section';

export interface ExportButtonsProps {
  /** The filters as the form holds them now; null when the form has problems (it shows them). */
  currentFilters: () => HistoryFilterQuery | null;
}

/**
 * Export of the filtered events as NDJSON or CSV (GET /api/admin/history/export).
 * The export needs the admin's token, so the file is fetched and saved from a Blob rather than
 * linked. One export at a time; a green alert names the saved file for 2 s.
 */
export function ExportButtons({ currentFilters }: ExportButtonsProps) {
  const { t } = useTranslation('adminAudit');
  const exporter = useAction(downloadHistoryExport);
  // The format asked for last: its button says "preparing" while the export runs.
  const [asked, setAsked] = useState<ExportFormat | null>(null);
  const [saved, showSaved] = useTimedValue<string>(ALERT_MS);
  const pending = exporter.pending ? asked : null;

  const download = async (format: ExportFormat) => {
    const filters = currentFilters();
    if (filters === null || exporter.pending) return;
    setAsked(format);
    const outcome = await exporter.run(filters, format);
    if (outcome.ok) showSaved(outcome.result);
  };

  return (
    <AuditSection level={3} heading={t('history.export.heading')} intro={t('history.export.intro')} testId="history-export">
      <div className={formStyles.actions}>
        {EXPORT_FORMATS.map((format) => (
          <button
            key={format}
            type="button"
            className={formStyles.buttonSecondary}
            disabled={exporter.pending}
            aria-busy={pending === format}
            onClick={() => void download(format)}
            data-testid={`history-export-${format}`}
          >
            {pending === format ? t('history.export.preparing') : t(`history.export.${format}`)}
          </button>
        ))}
      </div>
      {exporter.state.status === 'error' && <ErrorAlert code={exporter.state.code} />}
      {saved && <Alert variant="success">{t('history.export.done', { filename: saved })}</Alert>}
    </AuditSection>
  );
}
