import type { TeamAnswer } from '@sinilill/contracts';
import type { Edition } from '@sinilill/domain';
import { useCallback, useId, useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FlowerIcon } from '../../../components/ui/flower-icon';
import { Alert } from '../../../components/ui/form/alert';
import { CameraIcon, PencilIcon } from '../../../components/ui/icons';
import { errorCodeOf } from '../../../lib/api-client';
import { errorText } from '../../../lib/errors/catalogue';
import { useMoneyRaised } from '../../../lib/use-money-raised';
import { updatePublicAttributes } from '../api/update-public-attributes';
import { checkIconFile, ICON_ACCEPT, readAsDataUrl } from '../../../lib/icon-file';
import styles from './team-card.module.css';

export interface TeamCardProps {
  team: TeamAnswer;
  /** The team's edition: its limits (description length, image size, spec §5). */
  edition: Edition;
  /** The server accepted a change: show it now, and refresh from `position`. */
  onChanged: (patch: Partial<TeamAnswer>, position: number) => void;
}

/**
 * The team card (spec §2): the icon (a button that uploads a new image), the name, the members,
 * the money the team raised (euros; live with the page's change stream) and the
 * description (click or Enter to edit, saved on blur). A refusal shows in a red alert that is
 * announced and stays until the person closes it or tries again: a message that vanishes after
 * two seconds cannot be read to the end, least of all with a screen reader. An icon refusal also
 * says which files are taken (JPG, JPEG, PNG up to 5 MB).
 */
export function TeamCard({ team, edition, onChanged }: TeamCardProps) {
  const { t } = useTranslation('team');
  const raised = useMoneyRaised()(team.raised_cents, team.raised_unknown_count);
  const [error, setError] = useState<string | null>(null);
  const clearError = useCallback(() => setError(null), []);

  return (
    <article className={styles.card} aria-labelledby="team-heading" data-testid="team-card">
      <div className={styles.identity}>
        <TeamIcon team={team} limits={edition.limits} onChanged={onChanged} onError={setError} onAttempt={clearError} />
        <div className={styles.text}>
          <h1 id="team-heading" className={styles.name} data-testid="team-name">
            {team.team_name}
          </h1>
          <p className={styles.members}>{t('card.members', { count: team.participant_count })}</p>
          <p className={styles.members} data-testid="team-raised" title={raised.note}>
            {t('card.raised', { amount: raised.text })}
          </p>
        </div>
      </div>
      <TeamDescription team={team} limits={edition.limits} onChanged={onChanged} onError={setError} onAttempt={clearError} />
      {error && <CardError code={error} imageMaxBytes={edition.limits.imageMaxBytes} onDismiss={clearError} />}
    </article>
  );
}

interface PartProps {
  team: TeamAnswer;
  limits: Edition['limits'];
  onChanged: TeamCardProps['onChanged'];
  onError: (code: string) => void;
  /** A new try starts: the previous refusal goes. */
  onAttempt: () => void;
}

const ICON_CODES: readonly string[] = ['NOT_ALLOWED_FILE_TYPE', 'MAX_IMAGE_SIZE'];

/** The card's refusal: the catalogue text (with the allowed files for an icon) and a close button. */
function CardError({ code, imageMaxBytes, onDismiss }: { code: string; imageMaxBytes: number; onDismiss: () => void }) {
  const { t } = useTranslation('team');
  const { t: tc } = useTranslation();
  const base = errorText(tc, code);
  const rules = ICON_CODES.includes(code) ? `${/[.!?]$/.test(base) ? '' : '.'} ${t('card.iconRules', { size: Math.round(imageMaxBytes / (1024 * 1024)) })}` : '';
  return (
    <Alert variant="error">
      <span className={styles.errorRow}>
        <span data-testid="team-card-error">{base + rules}</span>
        <button type="button" className={styles.errorClose} onClick={onDismiss} data-testid="team-card-error-dismiss">
          {t('card.dismissError')}
        </button>
      </span>
    </Alert>
  );
}

/** The icon as a button: a hidden file input takes .jpg/.jpeg/.png up to 5 MB, checked first here. */
function TeamIcon({ team, limits, onChanged, onError, onAttempt }: PartProps) {
  const { t } = useTranslation('team');
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [uploading, setUploading] = useState(false);
  const [broken, setBroken] = useState<string | null>(null);

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Cleared, so that choosing the same file again fires another change.
    event.target.value = '';
    if (!file) return;
    onAttempt();
    const problem = checkIconFile(file, limits.imageMaxBytes);
    if (problem) return onError(problem);
    setUploading(true);
    try {
      const icon = await readAsDataUrl(file);
      const answer = await updatePublicAttributes(team.id, { icon });
      onChanged({ icon: answer.team.icon }, answer.position);
    } catch (error) {
      onError(errorCodeOf(error));
    } finally {
      setUploading(false);
    }
  }

  const showImage = team.icon !== null && team.icon !== broken;
  return (
    <div className={styles.iconBox}>
      <button
        type="button"
        className={styles.iconButton}
        onClick={() => input.current?.click()}
        disabled={uploading}
        aria-busy={uploading}
        aria-label={t('card.changeIcon')}
        aria-describedby={hintId}
        data-testid="team-icon-button"
      >
        {showImage ? (
          <img
            className={styles.icon}
            src={team.icon ?? undefined}
            alt={t('card.iconAlt', { name: team.team_name })}
            width={96}
            height={96}
            onError={() => setBroken(team.icon)}
            data-testid="team-icon"
          />
        ) : (
          <span className={`${styles.icon} ${styles.defaultIcon}`} data-testid="team-icon">
            <FlowerIcon size={60} />
          </span>
        )}
        <span className={styles.iconBadge} aria-hidden="true">
          <CameraIcon size={16} />
        </span>
      </button>
      <span id={hintId} className="sr-only">
        {uploading ? t('card.uploading') : t('card.iconHint')}
      </span>
      <input
        ref={input}
        type="file"
        accept={ICON_ACCEPT}
        hidden
        tabIndex={-1}
        onChange={(event) => void upload(event)}
        data-testid="team-icon-input"
      />
    </div>
  );
}

/** The description: text that becomes a textarea on click or Enter; saved when the textarea loses focus. */
function TeamDescription({ team, limits, onChanged, onError, onAttempt }: PartProps) {
  const descriptionMax = limits.descriptionMax;
  const { t } = useTranslation('team');
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  // Shown while the save is under way, so the text does not jump back meanwhile.
  const [saving, setSaving] = useState<string | null>(null);
  const textButton = useRef<HTMLButtonElement>(null);
  const cancelled = useRef(false);
  const hintId = useId();
  const inputId = useId();
  const countId = useId();

  const shown = saving ?? team.description;

  function start() {
    cancelled.current = false;
    setDraft(team.description);
    setEditing(true);
  }

  async function save() {
    setEditing(false);
    const text = draft.trim();
    if (cancelled.current || text === team.description) return;
    onAttempt();
    setSaving(text);
    try {
      const answer = await updatePublicAttributes(team.id, { description: text });
      onChanged({ description: answer.team.description }, answer.position);
    } catch (error) {
      onError(errorCodeOf(error));
    } finally {
      setSaving(null);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Escape') {
      // Inside the page, Escape only cancels the edit.
      event.preventDefault();
      cancelled.current = true;
      setEditing(false);
      requestAnimationFrame(() => textButton.current?.focus());
    }
  }

  if (editing) {
    return (
      <div className={styles.descriptionEdit}>
        <label htmlFor={inputId} className={styles.descriptionLabel}>
          {t('card.descriptionLabel')}
        </label>
        <textarea
          id={inputId}
          className={styles.textarea}
          value={draft}
          maxLength={descriptionMax}
          rows={4}
          autoFocus
          onChange={(event) => setDraft(event.target.value)}
          onBlur={() => void save()}
          onKeyDown={onKeyDown}
          aria-describedby={`${hintId} ${countId}`}
          data-testid="team-description-input"
        />
        <div className={styles.descriptionMeta}>
          <span id={hintId}>{t('card.descriptionSaveHint')}</span>
          <span id={countId}>{t('card.descriptionCount', { count: [...draft].length, max: descriptionMax })}</span>
        </div>
      </div>
    );
  }
  return (
    <div className={styles.description}>
      <button
        ref={textButton}
        type="button"
        className={styles.descriptionButton}
        onClick={start}
        aria-describedby={hintId}
        aria-busy={saving !== null}
      >
        <span className={shown ? styles.descriptionText : styles.descriptionPlaceholder} data-testid="team-description">
          {shown || t('card.descriptionEmpty')}
        </span>
        <PencilIcon size={16} className={styles.descriptionPencil} />
      </button>
      <span id={hintId} className="sr-only">
        {saving !== null ? t('card.saving') : t('card.descriptionEditHint')}
      </span>
    </div>
  );
}
