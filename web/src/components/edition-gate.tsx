/**
 * Renders its content once the site's edition is known (GET /api/editions through lib/edition.ts):
 * a loading spinner until then, a message with a try-again button when the read failed, and a
 * line saying no edition is announced when the answer holds none. Pages whose texts or checks
 * depend on the edition's data (fees, dates, limits, route) draw inside it instead of guessing.
 */
import type { Edition } from '@sinilill/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../lib/errors/catalogue';
import { siteEditionView, useEditions } from '../lib/edition';
import formStyles from './ui/form/form.module.css';
import { LoadingPanel } from './ui/spinner';

export interface EditionGateProps {
  /** The content, given the site's edition. */
  children: (edition: Edition) => ReactNode;
  /** Prefix of the test ids: `${testId}-loading`, `${testId}-error`, `${testId}-none`. */
  testId?: string;
  /** Shown instead of the loading spinner (a small part of a page wants nothing there). */
  loading?: ReactNode;
}

/** See the module's comment. */
export function EditionGate({ children, testId = 'edition', loading }: EditionGateProps) {
  const { t } = useTranslation();
  const state = useEditions();
  if (state.status === 'loading') return loading === undefined ? <LoadingPanel label={t('edition.loading')} testId={`${testId}-loading`} /> : <>{loading}</>;
  if (state.status === 'error') {
    return (
      <div role="alert" data-testid={`${testId}-error`}>
        <p>
          {t('edition.error')} {errorText(t, state.code)}
        </p>
        <button type="button" className={formStyles.button} onClick={state.reload} data-testid={`${testId}-retry`}>
          {t('edition.retry')}
        </button>
      </div>
    );
  }
  const view = siteEditionView(state.editions);
  if (view === null) return <p data-testid={`${testId}-none`}>{t('edition.none')}</p>;
  return <>{children(view.edition)}</>;
}
