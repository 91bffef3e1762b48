import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../lib/query-client';
import formStyles from './form/form.module.css';
import styles from './error-boundary.module.css';

export interface ErrorBoundaryProps {
  children: ReactNode;
  /** A way back to a safe place (a link), shown beside "try again". */
  back?: ReactNode;
  /** The fallback's test id (default `error-boundary`); its retry button is `${testId}-retry`. */
  testId?: string;
}

interface ErrorBoundaryState {
  failed: boolean;
}

/**
 * Keeps a part of a page that throws while rendering (an answer of an unexpected shape, a bug)
 * from blanking the whole page: the part is replaced by a message in the page's language with
 * "try again" (reads the part's server data again and renders it afresh) and the `back` action. Give it a `key` that changes with
 * what it shows (an admin tab), so that another view starts without the old failure.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { failed: false };

  static getDerivedStateFromError(): ErrorBoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // The browser's console is where a report of the failure can be read from.
    console.error('A part of the page failed to render:', error, info.componentStack);
  }

  // While the fallback shows, the failed part is unmounted, so the server data it rendered from is
  // in the cache without an observer: dropping what no one observes makes the part read afresh
  // instead of rendering the same answer into the same failure.
  private readonly retry = () => {
    queryClient.removeQueries({ type: 'inactive' });
    this.setState({ failed: false });
  };

  override render() {
    if (!this.state.failed) return this.props.children;
    return <ErrorFallback onRetry={this.retry} back={this.props.back} testId={this.props.testId ?? 'error-boundary'} />;
  }
}

function ErrorFallback({ onRetry, back, testId }: { onRetry: () => void; back?: ReactNode; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className={styles.fallback} role="alert" data-testid={testId}>
      <h2 className={styles.title}>{t('errorBoundary.title')}</h2>
      <p>{t('errorBoundary.text')}</p>
      <div className={formStyles.actions}>
        <button type="button" className={formStyles.button} onClick={onRetry} data-testid={`${testId}-retry`}>
          {t('errorBoundary.retry')}
        </button>
        {back}
      </div>
    </div>
  );
}
