import { ACTIVITY_TYPES, type ActivityType } from '@sinilill/domain';
import type { ActivityFilePartAnswer, ActivityFileProposalAnswer } from '@sinilill/contracts';
import { useCallback, useId, useMemo, useRef, useState, type ChangeEvent } from 'react';
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

/** What the member confirms for one part of a file. */
interface PartChoice {
  /** The part's type: the file's, or the member's choice ('' while none is chosen). */
  entryType: string;
  /** YYYY-MM-DD: the file's day, or the member's choice for a file without time ('' while none). */
  performedAt: string;
}

/** One chosen file on its way: read by the server, then confirmed or discarded by the member. */
interface FileItem {
  key: string;
  fileName: string;
  status: 'reading' | 'proposal' | 'saving' | 'added' | 'refused';
  proposal: ActivityFileProposalAnswer | null;
  /** One per part of the proposal, in its order. */
  choices: PartChoice[];
  /** A catalogue code: why the file or its confirmation was refused. */
  code: string | null;
  /** One key per proposal: a retried confirmation adds the entries once. */
  idempotencyKey: string;
}

/** Whether every part has a type and a day. */
const complete = (choices: readonly PartChoice[]) => choices.length > 0 && choices.every((choice) => choice.entryType !== '' && choice.performedAt !== '');

/**
 * "Add from a file" on the team page: the member picks GPX, TCX or FIT files
 * (several at once, up to 20 MB each); each is sent on its own and comes back as a proposal — its
 * parts (one per sport of a multi-sport file and per day, each with km, day and entry type: the
 * file's sport or the member's choice; a day input where the file has no time), a small map of
 * the tracks and the file's name — with one Add for all its parts and Discard, or with the
 * catalogue text of why it cannot be used (also when the file already counts for an entry).
 * Nothing is stored until Add, and then every part or none.
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
      key: newIdempotencyKey(), fileName: file.name, status: 'reading', proposal: null, choices: [], code: null, idempotencyKey: newIdempotencyKey(),
    }));
    setItems((current) => [...added, ...current]);
    // One file at a time: the server reads each whole.
    for (const [index, file] of files.entries()) {
      const { key } = added[index]!;
      try {
        const proposal = await uploadActivityFile(teamId, file);
        const choices = proposal.parts.map((part) => ({ entryType: part.entry_type ?? '', performedAt: part.performed_at ?? '' }));
        update(key, { status: 'proposal', proposal, choices, code: proposal.already_used ? 'ACTIVITY_FILE_ALREADY_USED' : null });
      } catch (error) {
        update(key, { status: 'refused', code: errorCodeOf(error) });
      }
    }
  };

  const confirm = async (item: FileItem) => {
    const { proposal, choices } = item;
    if (!proposal || !complete(choices)) return;
    update(item.key, { status: 'saving', code: null });
    try {
      const answer = await confirmActivityFile(teamId, {
        token: proposal.token,
        // Only what the member chose: a type other than the file's, a day where the file has none.
        parts: proposal.parts.map((part, i) => ({
          index: part.index,
          ...(choices[i]!.entryType !== part.entry_type ? { entry_type: choices[i]!.entryType } : {}),
          ...(part.performed_at === null ? { performed_at: choices[i]!.performedAt } : {}),
        })),
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
            <FileRow
              key={item.key}
              item={item}
              onChoice={(index, patch) => update(item.key, { choices: item.choices.map((choice, i) => (i === index ? { ...choice, ...patch } : choice)), code: null })}
              onConfirm={() => void confirm(item)}
              onDiscard={() => discard(item.key)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

interface FileRowProps {
  item: FileItem;
  onChoice: (index: number, patch: Partial<PartChoice>) => void;
  onConfirm: () => void;
  onDiscard: () => void;
}

function FileRow({ item, onChoice, onConfirm, onDiscard }: FileRowProps) {
  const { t } = useTranslation('team');
  const { t: tCommon } = useTranslation();
  const lang = useLang();
  const { proposal } = item;
  const alreadyUsed = proposal?.already_used === true;
  const parts = proposal?.parts ?? [];
  const many = parts.length > 1;
  const editable = proposal !== null && (item.status === 'proposal' || item.status === 'saving') && !alreadyUsed;
  const tracks = useMemo(() => parts.map((part) => part.track), [parts]);
  return (
    <li className={styles.item} data-testid="activity-file-item" data-status={item.status} data-parts={parts.length}>
      <div className={styles.details}>
        <p className={styles.fileName}>{item.fileName}</p>
        {item.status === 'reading' && <p role="status">{t('activityFiles.reading')}</p>}
        {proposal && item.status !== 'added' && (
          <dl className={styles.facts}>
            <dt>{many ? t('activityFiles.total') : t('activityFiles.distance')}</dt>
            <dd data-testid="activity-file-distance">{formatDistance(proposal.distance, lang)} km</dd>
            {!many && proposal.performed_at !== null && (
              <>
                <dt>{t('activityFiles.performedAt')}</dt>
                <dd data-testid="activity-file-date">{formatDate(proposal.performed_at, lang)}</dd>
              </>
            )}
          </dl>
        )}
        {proposal && item.status !== 'added' && (many || editable) && (
          <>
            {many && <p className={formStyles.hint}>{t('activityFiles.partsHint')}</p>}
            <ol className={styles.parts} aria-label={t('activityFiles.partsLabel')}>
              {parts.map((part, i) => (
                <PartFields
                  key={part.index}
                  part={part}
                  number={i + 1}
                  many={many}
                  choice={item.choices[i] ?? { entryType: '', performedAt: '' }}
                  editable={editable}
                  onChoice={(patch) => onChoice(i, patch)}
                />
              ))}
            </ol>
          </>
        )}
        {editable && (
          <div className={styles.actions}>
            <button type="button" className={formStyles.button} onClick={onConfirm} disabled={item.status === 'saving' || !complete(item.choices)} data-testid="activity-file-confirm">
              {item.status === 'saving' ? t('activityFiles.adding') : many ? t('activityFiles.confirmAll', { count: parts.length }) : t('activityFiles.confirm')}
            </button>
            <button type="button" className={formStyles.buttonSecondary} onClick={onDiscard} disabled={item.status === 'saving'} data-testid="activity-file-discard">
              {t('activityFiles.discard')}
            </button>
          </div>
        )}
        {item.status === 'added' && (
          <Alert variant="success">
            {many
              ? t('activityFiles.addedAll', { count: parts.length, distance: formatDistance(proposal?.distance ?? 0, lang) })
              : t('activityFiles.added', { distance: formatDistance(proposal?.distance ?? 0, lang) })}
          </Alert>
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
      {proposal && item.status !== 'added' && <TrackMap tracks={tracks} label={t('activityFiles.mapLabel', { name: item.fileName })} />}
    </li>
  );
}

interface PartFieldsProps {
  part: ActivityFilePartAnswer;
  /** 1-based, as the member counts. */
  number: number;
  /** Whether the file has other parts (then each is headed and shows its own km and day). */
  many: boolean;
  choice: PartChoice;
  /** Whether the type and a missing day may be chosen (a proposal not yet added nor used). */
  editable: boolean;
  onChoice: (patch: Partial<PartChoice>) => void;
}

/** One part of a file: its km and day (a day input where the file has none) and its type select. */
function PartFields({ part, number, many, choice, editable, onChoice }: PartFieldsProps) {
  const { t } = useTranslation('team');
  const lang = useLang();
  const typeId = useId();
  const dayId = useId();
  const dayHintId = useId();
  const typeOptions = ACTIVITY_TYPES.map((type: ActivityType) => ({ value: type, label: t(`entryTypes.${type}`) }));
  const presetOrChosen = part.entry_type && !(ACTIVITY_TYPES as readonly string[]).includes(part.entry_type) ? [{ value: part.entry_type, label: part.entry_type }] : [];
  const Wrapper = many ? 'fieldset' : 'div';
  return (
    <li className={many ? styles.part : undefined} data-testid="activity-file-part">
      <Wrapper className={formStyles.fieldset}>
        {many && (
          <legend className={styles.partHeading}>
            {t('activityFiles.part', { number })}
            {': '}
            <span data-testid="activity-file-part-distance">{formatDistance(part.distance, lang)} km</span>
            {part.performed_at !== null && <>{', '}<span data-testid="activity-file-part-date">{formatDate(part.performed_at, lang)}</span></>}
          </legend>
        )}
        {editable && part.performed_at === null && (
          <div className={formStyles.field}>
            <label htmlFor={dayId} className={formStyles.label}>{t('activityFiles.performedAt')}</label>
            <input
              id={dayId}
              type="date"
              className={formStyles.input}
              value={choice.performedAt}
              onChange={(event) => onChoice({ performedAt: event.target.value })}
              required
              aria-describedby={dayHintId}
              data-testid="activity-file-day"
            />
            <p id={dayHintId} className={formStyles.hint}>{t('activityFiles.noTime')}</p>
          </div>
        )}
        {editable && (
          <div className={formStyles.field}>
            <label htmlFor={typeId} className={formStyles.label}>{t('activityFiles.type')}</label>
            <select id={typeId} className={formStyles.select} value={choice.entryType} onChange={(event) => onChoice({ entryType: event.target.value })} data-testid="activity-file-type">
              {choice.entryType === '' && <option value="">{t('activityFiles.chooseType')}</option>}
              {[...presetOrChosen, ...typeOptions].map((option) => (
                <option key={option.value} value={option.value}>{option.label}</option>
              ))}
            </select>
          </div>
        )}
      </Wrapper>
    </li>
  );
}
