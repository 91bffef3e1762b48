import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { humanizeField, type FieldLabel } from './diff';

/**
 * The history's field names in the page's language (adminAudit history.fields: "entryType" →
 * "Tüüp" / "Type"); a field without a translation in words ("someNewField" → "Some new field").
 */
export function useFieldLabel(): FieldLabel {
  const { t } = useTranslation('adminAudit');
  const labels = t('history.fields', { returnObjects: true }) as Readonly<Record<string, string>>;
  return useCallback((field: string) => labels[field] ?? humanizeField(field), [labels]);
}
