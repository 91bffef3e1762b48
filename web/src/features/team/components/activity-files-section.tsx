import { ACTIVITY_TYPES, type ActivityType } from '@sinilill/domain';
import type { ActivityFileProposalAnswer } from '@sinilill/contracts';
import { useCallback, useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/form/alert';
import { errorCodeOf, newIdempotencyKey } from '../../../lib/api-client';
import { errorText } from '../../../lib/errors/catalogue';
import { formatDate } from '../../../lib/format-date';
import { formatDistance } from '../../../lib/format-number';
import { useLang } from '../../../lib/use-lang';
import { confirmActivityFile, uploadActivityFile } from '../api/activity-files';
import { TrackMap } from './track-map';
import formStyles from '../../../components/ui/form/form.module.css';
import pageStyles from './team-page.module.css';
import styles from './activity-files.module.css';

export interface ActivityFilesSectionProps {
  teamId: number;
  /** An entry was added from a file: refresh from its position (read-your-writes). */
  onSaved: (position: number) => void;
}

/** One chosen file on its way: read by the server, then confirmed or discarded by the member. */
interface FileItem {
  key: string;
  fileName: string;
  status: 'reading' | 'proposal' | 'saving' | 'added' | 'refused';
  proposal: ActivityFileProposalAnswer | null;
  /** The type the member confirms: the file's, or their choice ('' while none is chosen). */
  entryType: string;
  /** A catalogue code: why the file or its confirmation was refused. */
  code: string | null;
  /** One key per proposal: a retried confirmation adds the entry once. */
  idempotencyKey: string;
}

/**
 * "Add from a file" on the team page: the member picks GPX, TCX or FIT files
 * (several at once, up to 20 MB each); each is sent on its own and comes back as a proposal —
 * distance (km), day, entry type (the file's sport, or the member's choice), a small map of the
 * track and the file's name — with Add and Discard, or with the catalogue text of why it cannot be
 * used (also when the file already counts for an entry). Nothing is stored until Add.
 */
export function ActivityFilesSection({ teamId, onSaved }: ActivityFilesSectionProps) {
  const { t } = useTranslation('team');
  const inputId = useId();
  const hintId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [items, setItems] = useState<FileItem[]>([]);

  const update = useCallback((key: string, patch: Partial<FileItem>) => {
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...patch } : item)));
  }, []);

  const onFiles = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    // Cleared, so that the same file may be chosen again later.
    event.target.value = '';
    const added = files.map((file): FileItem => ({
      key: newIdempotencyKey(), fileName: file.name, status: 'reading', proposal: null, entryType: '', code: null, idempotencyKey: newIdempotencyKey(),
    }));
    setItems((current) => [...added, ...current]);
    // One file at a time: the server reads each whole.
    for (const [index, file] of files.entries()) {
      const { key } = added[index]!;
      try {
        const proposal = await uploadActivityFile(teamId, file);
        update(key, { status: 'proposal', proposal, entryType: proposal.entry_type ?? '', code: proposal.already_used ? 'ACTIVITY_FILE_ALREADY_USED' : null });
      } catch (error) {
        update(key, { status: 'refused', code: errorCodeOf(error) });
      }
    }
  };

  const confirm = async (item: FileItem) => {
    if (!item.proposal || item.entryType === '') return;
    update(item.key, { status: 'saving', code: null });
    try {
      const answer = await confirmActivityFile(teamId, {
        token: item.proposal.token,
        ...(item.entryType !== item.proposal.entry_type ? { entry_type: item.entryType } : {}),
      }, item.idempotencyKey);
      update(item.key, { status: 'added' });
      onSaved(answer.position);
    } catch (error) {
      update(item.key, { status: 'proposal', code: errorCodeOf(error) });
    }
  };

  const discard = (key: string) => {
    setItems((current) => current.filter((item) => item.key !== key));
    inputRef.current?.focus();
  };

  return (
    <section className={pageStyles.section} aria-labelledby="activity-files-heading" data-testid="activity-files">
      <h2 id="activity-files-heading" className={pageStyles.sectionHeading}>
        {t('activityFiles.heading')}
      </h2>
      <div className={formStyles.field}>
        <label htmlFor={inputId} className={formStyles.label}>
          {t('activityFiles.choose')}
        </label>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          multiple
          accept=".gpx,.tcx,.fit,application/gpx+xml,application/vnd.garmin.tcx+xml"
          aria-describedby={hintId}
          className={styles.fileInput}
          onChange={(event) => void onFiles(event)}
          data-testid="activity-file-input"
        />
        <p id={hintId} className={formStyles.hint}>
          {t('activityFiles.hint')}
        </p>
      </div>
      {items.length > 0 && (
        <ul className={styles.list} aria-label={t('activityFiles.listLabel')}>
          {items.map((item) => (
            <FileRow key={item.key} item={item} onType={(entryType) => update(item.key, { entryType, code: null })} onConfirm={() => void confirm(item)} onDiscard={() => discard(item.key)} />
          ))}
        </ul>
      )}
    </section>
  );
}

function FileRow({ item, onType, onConfirm, onDiscard }: { item: FileItem; onType: (entryType: string) => void; onConfirm: () => void; onDiscard: () => void }) {
  const { t } = useTranslation('team');
  const { t: tCommon } = useTranslation();
  const lang = useLang();
  const typeId = useId();
  const { proposal } = item;
  const typeOptions = ACTIVITY_TYPES.map((type: ActivityType) => ({ value: type, label: t(`entryTypes.${type}`) }));
  const presetOrChosen = proposal?.entry_type && !(ACTIVITY_TYPES as readonly string[]).includes(proposal.entry_type) ? [{ value: proposal.entry_type, label: proposal.entry_type }] : [];
  const alreadyUsed = proposal?.already_used === true;
  return (
    <li className={styles.item} data-testid="activity-file-item" data-status={item.status}>
      <div className={styles.details}>
        <p className={styles.fileName}>{item.fileName}</p>
        {item.status === 'reading' && <p role="status">{t('activityFiles.reading')}</p>}
        {proposal && item.status !== 'added' && (
          <dl className={styles.facts}>
            <dt>{t('activityFiles.distance')}</dt>
            <dd data-testid="activity-file-distance">{formatDistance(proposal.distance, lang)} km</dd>
            <dt>{t('activityFiles.performedAt')}</dt>
            <dd data-testid="activity-file-date">{formatDate(proposal.performed_at, lang)}</dd>
          </dl>
        )}
        {proposal && (item.status === 'proposal' || item.status === 'saving') && !alreadyUsed && (
          <>
            <div className={formStyles.field}>
              <label htmlFor={typeId} className={formStyles.label}>
                {t('activityFiles.type')}
              </label>
              <select id={typeId} className={formStyles.select} value={item.entryType} onChange={(event) => onType(event.target.value)} data-testid="activity-file-type">
                {item.entryType === '' && <option value="">{t('activityFiles.chooseType')}</option>}
                {[...presetOrChosen, ...typeOptions].map((option) => (
                  <option key={option.value} value={option.value}>{option.label}</option>
                ))}
              </select>
            </div>
            <div className={styles.actions}>
              <button type="button" className={formStyles.button} onClick={onConfirm} disabled={item.status === 'saving' || item.entryType === ''} data-testid="activity-file-confirm">
                {item.status === 'saving' ? t('activityFiles.adding') : t('activityFiles.confirm')}
              </button>
              <button type="button" className={formStyles.buttonSecondary} onClick={onDiscard} disabled={item.status === 'saving'} data-testid="activity-file-discard">
                {t('activityFiles.discard')}
              </button>
            </div>
          </>
        )}
        {item.status === 'added' && (
          <Alert variant="success">{t('activityFiles.added', { distance: formatDistance(proposal?.distance ?? 0, lang) })}</Alert>
        )}
        {item.code !== null && <Alert variant="error">{errorText(tCommon, item.code)}</Alert>}
        {(item.status === 'refused' || item.status === 'added' || alreadyUsed) && (
          <div className={styles.actions}>
            <button type="button" className={formStyles.buttonSecondary} onClick={onDiscard} data-testid="activity-file-dismiss">
              {t('activityFiles.dismiss')}
            </button>
          </div>
        )}
      </div>
      {proposal && item.status !== 'added' && <TrackMap track={proposal.track} label={t('activityFiles.mapLabel', { name: item.fileName })} />}
    </li>
  );
}
