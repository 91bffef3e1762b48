import type { AnnouncementProgress, AnnouncementRecipients, AnnouncementRequest } from '@sinilill/contracts';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import tableStyles from '../../../components/ui/data-table/data-table.module.css';
import { ConfirmDialog } from '../../../components/ui/dialog/confirm-dialog';
import { Alert, ErrorAlert } from '../../../components/ui/form/alert';
import { RadioGroup, TextField } from '../../../components/ui/form/field';
import { SubmitButton } from '../../../components/ui/form/submit-button';
import formStyles from '../../../components/ui/form/form.module.css';
import styles from './announcements.module.css';
import { useAction } from '../../../lib/use-action';
import { useLang } from '../../../lib/use-lang';
import { useNumberFormat } from '../../../lib/use-number-format';
import { countRecipients, listAnnouncements, sendAnnouncement, sendTestAnnouncement } from '../api/announcements';

const EMPTY: AnnouncementRequest = { subject_et: '', body_et: '', subject_en: '', body_en: '', audience: 'newsletter' };
/** How often the progress is read again while a sending is unfinished, ms. */
const REFRESH_MS = 1000;

function unfinished(a: AnnouncementProgress): boolean {
  return a.queued === null || a.sent + a.failed + a.skipped < a.queued;
}

/** A body's paragraphs as the mail sets them: blank-line separated, trimmed, empty ones dropped. */
function paragraphsOf(body: string): string[] {
  return body.split(/\n\s*\n/).map((p) => p.trim()).filter((p) => p !== '');
}

/** The mail in one language as it will arrive: its subject and paragraphs. */
function MailPreview({ lang, heading, subject, body, subjectLabel }: { lang: 'et' | 'en'; heading: string; subject: string; body: string; subjectLabel: string }) {
  return (
    <section lang={lang} className={styles.preview} data-testid={`announcement-preview-${lang}`} aria-label={heading}>
      <h4 className={styles.previewHeading}>{heading}</h4>
      <p className={styles.previewSubject}>
        <span className={styles.previewLabel}>{subjectLabel}: </span>
        <span data-testid={`announcement-preview-${lang}-subject`}>{subject}</span>
      </p>
      <div data-testid={`announcement-preview-${lang}-body`}>
        {paragraphsOf(body).map((paragraph, index) => (
          <p key={index} className={styles.previewParagraph}>{paragraph}</p>
        ))}
      </div>
    </section>
  );
}

/**
 * The announcements tab: the administrator writes an announcement in Estonian
 * and English and picks the audience (newsletter subscribers, or everyone for operational
 * notices). Before anything goes out the tab shows how many the audience reaches (the server's
 * count, per language), a preview of the mail in both languages and a "send a test to me"
 * button; sending asks first, naming the count, since one click reaches over a thousand people.
 * Below, the latest announcements with their progress (queued, sent, failed, skipped), read again
 * every second while one is still being sent. The server refuses anyone but an administrator.
 */
export function AnnouncementsTab() {
  const { t } = useTranslation('admin');
  const lang = useLang();
  const [form, setForm] = useState<AnnouncementRequest>(EMPTY);
  const [list, setList] = useState<AnnouncementProgress[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const send = useAction(sendAnnouncement);
  const sendTest = useAction(sendTestAnnouncement);
  const number = useNumberFormat();
  const [recipients, setRecipients] = useState<AnnouncementRecipients | null>(null);
  const [recipientsError, setRecipientsError] = useState(false);
  const [confirming, setConfirming] = useState(false);
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
  const { audience } = form;
  useEffect(() => {
    const controller = new AbortController();
    setRecipients(null);
    setRecipientsError(false);
    countRecipients(audience, controller.signal).then(setRecipients, () => {
      if (!controller.signal.aborted) setRecipientsError(true);
    });
    return () => controller.abort();
  }, [audience]);
  useEffect(() => {
    if (!list?.some(unfinished)) return;
    const timer = setTimeout(() => void refresh(), REFRESH_MS);
    return () => clearTimeout(timer);
  }, [list, refresh]);

  const set = (field: keyof AnnouncementRequest) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  const complete = Boolean(form.subject_et.trim() && form.body_et.trim() && form.subject_en.trim() && form.body_en.trim());
  const publish = async () => {
    const outcome = await send.run(form);
    if (outcome.ok) {
      setConfirming(false);
      setForm(EMPTY);
      await refresh();
    }
  };
  // Incomplete: straight to the server, whose refusal says what is missing. Complete: ask first.
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!complete) void send.run(form);
    else setConfirming(true);
  };
  const total = recipients?.total ?? null;
  const recipientsText = recipientsError
    ? t('announcements.recipientsUnknown')
    : recipients === null
      ? t('announcements.recipientsLoading')
      : t('announcements.recipients', { count: recipients.total, shown: number(recipients.total), est: number(recipients.est), eng: number(recipients.eng) });
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
        <p className={styles.recipients} aria-live="polite" data-testid="announcement-recipients" data-total={total ?? undefined}>{recipientsText}</p>
        {complete && (
          <div className={styles.previews}>
            <h3 className={styles.previewsHeading}>{t('announcements.preview')}</h3>
            <MailPreview lang="et" heading={t('announcements.previewEt')} subjectLabel={t('announcements.previewSubject')} subject={form.subject_et} body={form.body_et} />
            <MailPreview lang="en" heading={t('announcements.previewEn')} subjectLabel={t('announcements.previewSubject')} subject={form.subject_en} body={form.body_en} />
          </div>
        )}
        {sendTest.state.status === 'error' && <ErrorAlert code={sendTest.state.code} />}
        {sendTest.state.status === 'success' && <Alert variant="success">{t('announcements.testSent')}</Alert>}
        <div className={formStyles.actions}>
          <SubmitButton pending={send.pending && !confirming} testId="announcement-send">
            {t('announcements.send')}
          </SubmitButton>
          <button type="button" className={formStyles.buttonSecondary} aria-disabled={!complete || sendTest.pending}
            onClick={() => { if (complete && !sendTest.pending) void sendTest.run(form); }} data-testid="announcement-test">
            {sendTest.pending ? t('announcements.testSending') : t('announcements.test')}
          </button>
          {!complete && <span className={formStyles.hint}>{t('announcements.bothLanguages')}</span>}
        </div>
      </form>
      <ConfirmDialog
        open={confirming}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void publish()}
        title={total === null ? t('announcements.confirmTitleUnknown') : t('announcements.confirmTitle', { count: total, shown: number(total) })}
        confirmLabel={total === null ? t('announcements.send') : t('announcements.confirmButton', { count: total, shown: number(total) })}
        cancelLabel={t('announcements.cancel')}
        pending={send.pending}
        pendingLabel={t('announcements.sending')}
        errorCode={send.state.status === 'error' ? send.state.code : null}
        canConfirm={total !== null && total > 0}
        testId="announcement-confirm"
      >
        <p>{form.audience === 'all' ? t('announcements.audienceAll') : t('announcements.audienceNewsletter')}: {recipientsText}</p>
        <p>{total === 0 ? t('announcements.confirmNobody') : total === null ? t('announcements.recipientsUnknown') : t('announcements.confirmBody')}</p>
      </ConfirmDialog>
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
