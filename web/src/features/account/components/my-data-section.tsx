import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ui/form/alert';
import formStyles from '../../../components/ui/form/form.module.css';
import { storedFromLang } from '../../../lib/language';
import { useSessionStore } from '../../../lib/session-store';
import { useLang } from '../../../lib/use-lang';
import { useAction } from '../../../lib/use-action';
import { downloadMyData, type MyDataFormat } from '../api/my-data';
import dialogStyles from '../../../components/ui/dialog/modal-dialog.module.css';
import styles from './account.module.css';
import ownStyles from './my-data.module.css';
import { EraseAccountDialog } from './erase-account-dialog';

/**
 * "My data" on the account page: download everything the app holds about me
 * (JSON or CSV), and erase my account after confirming with my password (EraseAccountDialog);
 * an administrator is told that another administrator deletes their account.
 */
export function MyDataSection() {
  const { t } = useTranslation('account');
  const lang = useLang();
  const [eraseOpen, setEraseOpen] = useState(false);
  const download = useAction(downloadMyData);
  const [format, setFormat] = useState<MyDataFormat | null>(null);
  // An administrator's account is deleted by another administrator (the server refuses it here).
  const isAdmin = useSessionStore((s) => s.identity.isAdmin);

  const start = (next: MyDataFormat) => {
    setFormat(next);
    void download.run(next, storedFromLang(lang));
  };

  return (
    <section className={styles.section} aria-labelledby="my-data-heading" data-testid="my-data">
      <h2 id="my-data-heading" className={styles.heading}>
        {t('myData.heading')}
      </h2>
      <p>{t('myData.downloadText')}</p>
      {download.state.status === 'error' && <ErrorAlert code={download.state.code} />}
      <div className={formStyles.actions}>
        {(['json', 'csv'] as const).map((each) => (
          <button
            key={each}
            type="button"
            className={formStyles.buttonSecondary}
            onClick={() => start(each)}
            disabled={download.pending}
            aria-busy={download.pending && format === each}
            data-testid={`my-data-download-${each}`}
          >
            {t(each === 'json' ? 'myData.downloadJson' : 'myData.downloadCsv')}
          </button>
        ))}
      </div>
      <h3 className={ownStyles.subheading}>{t('myData.eraseHeading')}</h3>
      {isAdmin ? (
        <p data-testid="my-data-erase-admin">{t('myData.eraseAdmin')}</p>
      ) : (
        <>
          <p>{t('myData.eraseText')}</p>
          <div className={formStyles.actions}>
            <button type="button" className={`${formStyles.button} ${dialogStyles.danger}`} onClick={() => setEraseOpen(true)} data-testid="my-data-erase">
              {t('myData.erase')}
            </button>
          </div>
          <EraseAccountDialog open={eraseOpen} onClose={() => setEraseOpen(false)} />
        </>
      )}
    </section>
  );
}
