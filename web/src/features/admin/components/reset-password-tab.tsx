import { useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ui/form/alert';
import { FieldFrame, SelectField } from '../../../components/ui/form/field';
import { CheckIcon, CopyIcon } from '../../../components/ui/icons';
import { LoadingPanel } from '../../../components/ui/spinner';
import { useAction } from '../../../lib/use-action';
import { useLang } from '../../../lib/use-lang';
import { useTimedValue } from '../../../lib/use-timed-value';
import { resetPassword } from '../api/admin-commands';
import { getUsers, type AdminReadOptions } from '../api/get-admin-data';
import { useAdminList } from '../api/use-admin-list';
import { generatePassword } from '../utils/password';
import { filterChoices, userChoices } from '../utils/rows';
import { ListError } from './console/list-status';
import { NoticeBar, useNotice } from './console/notice';
import formStyles from '../../../components/ui/form/form.module.css';
import styles from './console/console.module.css';

const loadAccounts = (options: AdminReadOptions) => getUsers(options).then((answer) => answer.users);

/** Sets `password` (generated just before, in the browser) as account `userId`'s. */
function reset({ userId, password }: { userId: string; password: string }) {
  return resetPassword(userId, password);
}

/**
 * The reset-password tab (spec §2 "Admin" → Reset password): choose an account by e-mail from an
 * alphabetical list (narrowed by a search box), press reset; a random password (16 letters and
 * digits from crypto.getRandomValues, utils/password.ts) is generated in the browser, sent with
 * POST /api/admin/resetpassword and, once the server accepted it, shown in a disabled field with a
 * copy button, with "Password successfully changed!" in a green alert for 2 s. A refusal shows in
 * a red alert. Test ids: `admin-search`, `admin-reset-user` (option values = user ids, labels =
 * e-mails), `admin-reset-submit`, `admin-reset-password`, `admin-reset-copy`.
 */
export function ResetPasswordTab() {
  const { t } = useTranslation('admin');
  const lang = useLang();
  const list = useAdminList('accounts', loadAccounts);
  const notice = useNotice();
  const [query, setQuery] = useState('');
  const [userId, setUserId] = useState('');
  const [result, setResult] = useState<{ userId: string; email: string; password: string } | null>(null);
  const [copied, showCopied] = useTimedValue<true>();
  const action = useAction(reset);
  const filterId = useId();
  const passwordId = useId();

  const choices = useMemo(() => userChoices(list.rows ?? [], lang), [list.rows, lang]);
  const options = useMemo(
    () => filterChoices(choices, query, lang, userId || undefined).map((choice) => ({ value: choice.id, label: choice.email })),
    [choices, query, lang, userId],
  );
  const chosen = choices.find((choice) => choice.id === userId) ?? null;
  // The password shown belongs to the account chosen; choosing another hides it.
  const shown = result !== null && result.userId === userId ? result : null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!chosen) return;
    const password = generatePassword();
    const outcome = await action.run({ userId: chosen.id, password });
    if (!outcome.ok) return;
    setResult({ userId: chosen.id, email: chosen.email, password });
    notice.success(t('success.password'));
  }

  async function copy(password: string) {
    try {
      await navigator.clipboard.writeText(password);
      showCopied(true);
      notice.success(t('reset.copied'));
    } catch {
      // No clipboard (an insecure page, a refusal): the password stays readable in the field.
    }
  }

  return (
    <div className={styles.tab}>
      <p className={styles.intro}>{t('reset.intro')}</p>
      <ListError code={list.error} onRetry={list.reload} />
      {list.rows === null && list.error === null ? (
        <LoadingPanel label={t('console.loading')} testId="admin-loading" />
      ) : (
        <form className={`${formStyles.form} ${styles.resetForm}`} onSubmit={(event) => void submit(event)} noValidate>
          <FieldFrame id={filterId} label={t('reset.filter')} problem={undefined}>
            {() => (
              <input
                id={filterId}
                type="search"
                className={formStyles.input}
                value={query}
                onChange={(event) => setQuery(event.target.value)}
                autoComplete="off"
                data-testid="admin-search"
              />
            )}
          </FieldFrame>
          <SelectField
            name="userId"
            label={t('reset.user')}
            value={userId}
            onChange={(next) => {
              setUserId(next);
              action.reset();
            }}
            options={options}
            placeholder={t('reset.choose')}
            selectProps={{ 'data-testid': 'admin-reset-user' }}
          />
          {action.state.status === 'error' && <ErrorAlert code={action.state.code} />}
          <div className={formStyles.actions}>
            <button type="submit" className={formStyles.button} disabled={!chosen || action.pending} aria-busy={action.pending} data-testid="admin-reset-submit">
              {action.pending ? t('reset.resetting') : t('reset.submit')}
            </button>
          </div>
          {shown && (
            <FieldFrame id={passwordId} label={t('reset.newPassword', { email: shown.email })} problem={undefined}>
              {(aria) => (
                <div className={styles.passwordRow}>
                  <input
                    id={passwordId}
                    type="text"
                    className={formStyles.input}
                    value={shown.password}
                    disabled
                    autoComplete="off"
                    spellCheck={false}
                    {...aria}
                    data-testid="admin-reset-password"
                  />
                  <button
                    type="button"
                    className={formStyles.iconButton}
                    onClick={() => void copy(shown.password)}
                    aria-label={t('reset.copy')}
                    title={t('reset.copy')}
                    data-testid="admin-reset-copy"
                  >
                    {copied ? <CheckIcon size={18} /> : <CopyIcon size={18} />}
                  </button>
                </div>
              )}
            </FieldFrame>
          )}
        </form>
      )}
      <NoticeBar notice={notice.notice} />
    </div>
  );
}
