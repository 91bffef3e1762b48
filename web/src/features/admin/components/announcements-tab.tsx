import type { AnnouncementProgress, AnnouncementRequest } from '@sinilill/contracts';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import tableStyles from '../../../components/ui/data-table/data-table.module.css';
import { Alert, ErrorAlert } from '../../../components/ui/form/alert';
import { RadioGroup, TextField } from '../../../components/ui/form/field';
import { SubmitButton } from '../../../components/ui/form/submit-button';
import formStyles from '../../../components/ui/form/form.module.css';
import { useAction } from '../../../lib/use-action';
import { useLang } from '../../../lib/use-lang';
import { listAnnouncements, sendAnnouncement } from '../api/announcements';

const EMPTY: AnnouncementRequest = { subject_et: '', body_et: '', subject_en: '', body_en: '', audience: 'newsletter' };
/** How often the progress is read again while a sending is unfinished, ms. */
const REFRESH_MS = 1000;

function unfinished(a: AnnouncementProgress): boolean {
  return a.queued === null || a.sent + a.failed + a.skipped < a.queued;
}

/**
 * The announcements tab (issue 20 item 4): the administrator writes an announcement in Estonian
 * and English, picks the audience (newsletter subscribers, or everyone for operational notices)
 * and sends it; below, the latest announcements with their progress (queued, sent, failed,
 * skipped), read again every second while one is still being sent. The server refuses anyone but
 * an administrator.
 */
export function AnnouncementsTab() {
  const { t } = useTranslation('admin');
  const lang = useLang();
  const [form, setForm] = useState<AnnouncementRequest>(EMPTY);
  const [list, setList] = useState<AnnouncementProgress[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const send = useAction(sendAnnouncement);
  const bodyEtId = useId();
  const bodyEnId = useId();

  const refresh = useCallback(async () => {
    try {
      setList((await listAnnouncements()).announcements);
      setLoadError(null);
    } catch {
      setLoadError('GENERIC_ERROR');
    }
  }, []);
  useEffect(() => { void refresh(); }, [refresh]);
  useEffect(() => {
    if (!list?.some(unfinished)) return;
    const timer = setTimeout(() => void refresh(), REFRESH_MS);
    return () => clearTimeout(timer);
  }, [list, refresh]);

  const set = (field: keyof AnnouncementRequest) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const outcome = await send.run(form);
    if (outcome.ok) {
      setForm(EMPTY);
      await refresh();
    }
  };
  const complete = form.subject_et.trim() && form.body_et.trim() && form.subject_en.trim() && form.body_en.trim();
  const time = (iso: string) => new Intl.DateTimeFormat(lang === 'et' ? 'et-EE' : 'en-GB', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Tallinn' }).format(new Date(iso));

  return (
    <div data-testid="announcements">
      <h2>{t('announcements.heading')}</h2>
      <p>{t('announcements.intro')}</p>
      <form className={formStyles.form} onSubmit={(e) => void onSubmit(e)} noValidate>
        {send.state.status === 'error' && <ErrorAlert code={send.state.code} />}
        {send.state.status === 'success' && <Alert variant="success">{t('announcements.sent')}</Alert>}
        <TextField name="subject_et" label={t('announcements.subjectEt')} value={form.subject_et} onChange={set('subject_et')} inputProps={{ 'data-testid': 'announcement-subject-et' }} />
        <div className={formStyles.field}>
          <label htmlFor={bodyEtId} className={formStyles.label}>{t('announcements.bodyEt')}</label>
          <textarea id={bodyEtId} lang="et" className={formStyles.input} rows={6} value={form.body_et} onChange={(e) => set('body_et')(e.target.value)} data-testid="announcement-body-et" />
        </div>
        <TextField name="subject_en" label={t('announcements.subjectEn')} value={form.subject_en} onChange={set('subject_en')} inputProps={{ 'data-testid': 'announcement-subject-en' }} />
        <div className={formStyles.field}>
          <label htmlFor={bodyEnId} className={formStyles.label}>{t('announcements.bodyEn')}</label>
          <textarea id={bodyEnId} lang="en" className={formStyles.input} rows={6} value={form.body_en} onChange={(e) => set('body_en')(e.target.value)} data-testid="announcement-body-en" />
        </div>
        <RadioGroup
          name="audience"
          legend={t('announcements.audience')}
          value={form.audience}
          onChange={(value) => set('audience')(value)}
          options={[
            { value: 'newsletter', label: t('announcements.audienceNewsletter'), description: t('announcements.audienceNewsletterHint') },
            { value: 'all', label: t('announcements.audienceAll'), description: t('announcements.audienceAllHint') },
          ]}
        />
        <div className={formStyles.actions}>
          <SubmitButton pending={send.pending} testId="announcement-send">
            {t('announcements.send')}
          </SubmitButton>
          {!complete && <span className={formStyles.hint}>{t('announcements.bothLanguages')}</span>}
        </div>
      </form>
      <h3>{t('announcements.progressHeading')}</h3>
      {loadError && <ErrorAlert code={loadError} />}
      {list && list.length === 0 && <p>{t('announcements.none')}</p>}
      {list && list.length > 0 && (
        <div className={tableStyles.scroller} role="region" aria-label={t('announcements.progressHeading')} tabIndex={0}>
          <table className={tableStyles.table} data-testid="announcement-list">
            <caption className="sr-only">{t('announcements.progressHeading')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('announcements.columns.time')}</th>
                <th scope="col">{t('announcements.columns.subject')}</th>
                <th scope="col">{t('announcements.columns.audience')}</th>
                <th scope="col">{t('announcements.columns.queued')}</th>
                <th scope="col">{t('announcements.columns.sent')}</th>
                <th scope="col">{t('announcements.columns.failed')}</th>
                <th scope="col">{t('announcements.columns.skipped')}</th>
              </tr>
            </thead>
            <tbody aria-live="polite">
              {list.map((a) => (
                <tr key={a.announcementId} data-testid="announcement-row">
                  <td>{time(a.publishedAt)}</td>
                  <td>{lang === 'et' ? a.subject_et : a.subject_en}</td>
                  <td>{a.audience === 'all' ? t('announcements.audienceAll') : t('announcements.audienceNewsletter')}</td>
                  <td data-testid="announcement-queued">{a.queued ?? '…'}</td>
                  <td data-testid="announcement-sent">{a.sent}</td>
                  <td data-testid="announcement-failed">{a.failed}</td>
                  <td>{a.skipped}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
