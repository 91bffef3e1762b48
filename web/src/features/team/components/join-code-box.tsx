import type { JoinCodeAnswer } from '@sinilill/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/dialog/confirm-dialog';
import { ErrorAlert } from '../../../components/ui/form/alert';
import { CheckIcon, CopyIcon, RefreshIcon } from '../../../components/ui/icons';
import { errorCodeOf } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format-date';
import { queryKeys } from '../../../lib/query-client';
import { useAction } from '../../../lib/use-action';
import { useFetched } from '../../../lib/use-fetched';
import { useLang } from '../../../lib/use-lang';
import { useTimedValue } from '../../../lib/use-timed-value';
import { getJoinCode, newJoinCode } from '../api/join-code';
import formStyles from '../../../components/ui/form/form.module.css';
import styles from './join-code-box.module.css';

type CodeState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; code: JoinCodeAnswer };

/**
 * The join code box (spec §2): the code, a copy button that shows a tick for a moment, and
 * "generate new code" (after a confirmation in the site's own modal, whose Cancel has the focus; a
 * refusal shows in it) with a notice of when the new code was made.
 */
export function JoinCodeBox({ teamId, onChanged }: { teamId: number; onChanged: (position: number) => void }) {
  const { t } = useTranslation('team');
  const lang = useLang();
  const queryClient = useQueryClient();
  const fetcher = useCallback((signal: AbortSignal) => getJoinCode(teamId, signal), [teamId]);
  const fetched = useFetched(queryKeys.joinCode(teamId), fetcher);
  const state: CodeState = fetched.status === 'ready' ? { status: 'ready', code: fetched.data } : { status: fetched.status };
  const [generated, setGenerated] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [copied, showCopied] = useTimedValue<true>();
  const [error, showError] = useTimedValue<string>();
  const regenerate = useAction(newJoinCode);


  async function copy(code: string) {
    try {
      await copyText(code);
      showCopied(true);
    } catch (failure) {
      showError(errorCodeOf(failure));
    }
  }

  function askToGenerate() {
    regenerate.reset();
    setConfirming(true);
  }

  async function generate() {
    const outcome = await regenerate.run(teamId);
    if (!outcome.ok) return; // the dialog stays open with the refusal
    setConfirming(false);
    queryClient.setQueryData(queryKeys.joinCode(teamId), outcome.result);
    setGenerated(outcome.result.created_at);
    if (outcome.result.position !== undefined) onChanged(outcome.result.position);
  }

  const code = state.status === 'ready' ? state.code.code : null;
  return (
    <section className={styles.box} aria-labelledby="join-code-heading">
      <h2 id="join-code-heading" className={styles.heading}>
        {t('joinCode.heading')}
      </h2>
      <p className={styles.intro}>{t('joinCode.intro')}</p>
      <div className={styles.codeRow}>
        <code className={styles.code} data-testid="join-code" aria-busy={state.status === 'loading'}>
          {code ?? (state.status === 'loading' ? t('joinCode.loading') : '—')}
        </code>
        <button
          type="button"
          className={styles.copyButton}
          onClick={() => code && void copy(code)}
          disabled={code === null}
          aria-label={t('joinCode.copy')}
          title={t('joinCode.copy')}
          data-testid="join-code-copy"
        >
          {copied ? (
            <span className={styles.copied} data-testid="join-code-copied">
              <CheckIcon size={20} />
            </span>
          ) : (
            <CopyIcon size={20} />
          )}
        </button>
      </div>
      <p className="sr-only" role="status">
        {copied ? t('joinCode.copied') : ''}
      </p>
      {state.status === 'error' && <p className={styles.unavailable}>{t('joinCode.unavailable')}</p>}
      <button
        type="button"
        className={formStyles.buttonSecondary}
        onClick={askToGenerate}
        data-testid="join-code-new"
      >
        <RefreshIcon size={18} />
        {t('joinCode.new')}
      </button>
      {/* Always in the page, so that screen readers announce the notice when it appears. */}
      <div role="status">
        {generated && (
          <p className={styles.notice} data-testid="join-code-notice">
            {t('joinCode.notice', { date: formatDateTime(generated, lang) })}
          </p>
        )}
      </div>
      {error && <ErrorAlert code={error} />}
      <ConfirmDialog
        open={confirming}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void generate()}
        title={t('joinCode.confirmTitle')}
        confirmLabel={t('joinCode.confirmButton')}
        pendingLabel={t('joinCode.generating')}
        cancelLabel={t('joinCode.cancel')}
        pending={regenerate.pending}
        errorCode={regenerate.state.status === 'error' ? regenerate.state.code : null}
        testId="join-code-confirm"
      >
        <p>{t('joinCode.confirm')}</p>
      </ConfirmDialog>
    </section>
  );
}

/**
 * Puts `text` on the clipboard: the Clipboard API where the page may use it (a secure context),
 * else the old selection-and-copy command. Throws when neither works.
 */
async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Refused (no permission, not focused): try the old way.
    }
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  // execCommand is deprecated but the only fallback where the Clipboard API is missing.
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy refused');
}
