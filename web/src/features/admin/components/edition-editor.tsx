import type { Edition } from '@sinilill/domain';
import { useId, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/form/alert';
import { SubmitButton } from '../../../components/ui/form/submit-button';
import { errorText } from '../../../lib/errors/catalogue';
import { useLang } from '../../../lib/use-lang';
import { changeEdition, editionErrorOf, planEdition, type EditionView } from '../api/editions';
import {
  editionFromDraft,
  FEE_FIELDS,
  FLOWER_FIELDS,
  LIMIT_FIELDS,
  newMission,
  parseEditionUpload,
  TEAM_DOT_FIELDS,
  type EditionDraft,
  type MissionDraft,
} from '../utils/edition-form';
import formStyles from '../../../components/ui/form/form.module.css';
import tableStyles from '../../../components/ui/data-table/data-table.module.css';
import styles from './editions.module.css';

/** A problem shown above the form: a catalogue code and the field it names (null: none). */
interface Problem {
  code: string;
  field: string | null;
}

export interface EditionEditorProps {
  /** `new`: plan (POST); `edit`: change (PUT); `view`: a closed edition, read-only. */
  mode: 'new' | 'edit' | 'view';
  initial: EditionDraft;
  /** Called with the saved edition (the list reads again). */
  onSaved: (view: EditionView) => void;
  onCancel: () => void;
}

/** True when `problem` names `path` or a field inside it ("route" marks the whole route). */
function names(problems: readonly Problem[], path: string): boolean {
  return problems.some((p) => p.field !== null && (p.field === path || p.field.startsWith(`${path}.`) || p.field.startsWith(`${path}[`)));
}

/**
 * The form of one edition (spec §1, §4, §9 as data): its year and names, dates, fees in euros
 * as typed in the page's language, limits, flower parameters, moderation rules (JSON, kept from
 * the edition it started from), draw rules in both languages and the route as a table of missions
 * (name and description in both languages, length in km, optional map position). A JSON file —
 * a whole edition or a route — fills the form instead of typing. Saving sends the edition; the
 * server checks it as a whole and a refusal is shown with its code's text in the page's language
 * and the field it names (`route.missions[3].name.en`), that field marked invalid. Test ids:
 * edition-form, edition-field-{path}, edition-mission-{i}-{column}, edition-upload, edition-save,
 * edition-problems, edition-problem.
 */
export function EditionEditor({ mode, initial, onSaved, onCancel }: EditionEditorProps) {
  const { t } = useTranslation('admin');
  const { t: common } = useTranslation();
  const lang = useLang();
  const [draft, setDraft] = useState<EditionDraft>(initial);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [uploaded, setUploaded] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const readOnly = mode === 'view';
  const problemsRef = useRef<HTMLDivElement>(null);
  const baseId = useId();

  const set = (patch: Partial<EditionDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const setMission = (index: number, patch: Partial<MissionDraft>) =>
    setDraft((d) => ({ ...d, missions: d.missions.map((m, i) => (i === index ? { ...m, ...patch } : m)) }));
  const moveMission = (index: number, step: -1 | 1) =>
    setDraft((d) => {
      const missions = [...d.missions];
      const other = index + step;
      if (other < 0 || other >= missions.length) return d;
      [missions[index], missions[other]] = [missions[other]!, missions[index]!];
      return { ...d, missions };
    });

  const show = (found: Problem[]) => {
    setProblems(found);
    // The list is above the form: bring it into view for the one who pressed save at the bottom.
    requestAnimationFrame(() => problemsRef.current?.scrollIntoView?.({ block: 'nearest' }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (readOnly || pending) return;
    setUploaded(null);
    const built = editionFromDraft(draft);
    if (!built.ok) {
      show(built.problems);
      return;
    }
    setPending(true);
    try {
      const saved = await (mode === 'new' ? planEdition(built.edition) : changeEdition(built.edition));
      setProblems([]);
      onSaved(saved);
    } catch (error) {
      show([editionErrorOf(error)]);
    } finally {
      setPending(false);
    }
  };

  const onUpload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const result = parseEditionUpload(await file.text(), lang);
    if (!result.ok) {
      setUploaded(null);
      show([result.problem === 'routeMismatch'
        ? { code: 'EDITION_ROUTE_INVALID', field: result.field }
        : { code: result.problem === 'notJson' ? 'upload.notJson' : 'upload.unknownShape', field: null }]);
      return;
    }
    setProblems([]);
    if (result.kind === 'route') set({ missions: result.missions });
    // A changed edition keeps its year: the file's other fields replace the form's.
    else setDraft(mode === 'edit' ? { ...result.draft, year: draft.year } : result.draft);
    setUploaded(result.kind === 'route' ? t('editions.upload.route', { count: result.missions.length }) : t('editions.upload.edition'));
  };

  const field = (path: string, label: ReactNode, value: string, onChange: (value: string) => void, options: { type?: string; hint?: ReactNode; lang?: 'et' | 'en'; inputMode?: 'decimal' | 'numeric'; disabled?: boolean } = {}) => {
    const id = `${baseId}-${path}`;
    return (
      <div className={formStyles.field} key={path}>
        <label htmlFor={id} className={formStyles.label}>{label}</label>
        <input
          id={id}
          type={options.type ?? 'text'}
          className={formStyles.input}
          value={value}
          lang={options.lang}
          inputMode={options.inputMode}
          autoComplete="off"
          readOnly={readOnly || options.disabled}
          aria-invalid={names(problems, path)}
          aria-describedby={options.hint ? `${id}-hint` : undefined}
          onChange={(e) => onChange(e.target.value)}
          data-testid={`edition-field-${path}`}
        />
        {options.hint && <p id={`${id}-hint`} className={formStyles.hint}>{options.hint}</p>}
      </div>
    );
  };
  const textArea = (path: string, label: ReactNode, value: string, onChange: (value: string) => void, rows: number, language?: 'et' | 'en') => {
    const id = `${baseId}-${path}`;
    return (
      <div className={formStyles.field}>
        <label htmlFor={id} className={formStyles.label}>{label}</label>
        <textarea id={id} className={formStyles.input} rows={rows} value={value} lang={language} readOnly={readOnly}
          aria-invalid={names(problems, path)} onChange={(e) => onChange(e.target.value)} data-testid={`edition-field-${path}`} />
      </div>
    );
  };
  const euros = t('editions.eurosHint');

  return (
    <form className={formStyles.form} onSubmit={(e) => void onSubmit(e)} noValidate data-testid="edition-form" aria-labelledby={`${baseId}-heading`}>
      <h3 id={`${baseId}-heading`}>
        {mode === 'new' ? t('editions.planHeading') : mode === 'edit' ? t('editions.editHeading', { year: draft.year }) : t('editions.viewHeading', { year: draft.year })}
      </h3>
      {readOnly && <p data-testid="edition-read-only">{t('editions.readOnly')}</p>}
      <div ref={problemsRef} aria-live="polite">
        {problems.length > 0 && (
          <Alert variant="error" live={false}>
            <div data-testid="edition-problems">
              <p>{t('editions.refused')}</p>
              <ul>
                {problems.map((p, index) => (
                  <li key={index} data-testid="edition-problem" data-code={p.code} data-field={p.field ?? ''}>
                    {p.code === 'upload.notJson' ? t('editions.upload.notJson') : p.code === 'upload.unknownShape' ? t('editions.upload.unknownShape') : errorText(common, p.code)}
                    {p.field !== null && <> — {t('editions.problemField')} <code lang="en">{p.field}</code></>}
                  </li>
                ))}
              </ul>
            </div>
          </Alert>
        )}
      </div>
      {uploaded && <Alert variant="success"><span data-testid="edition-uploaded">{uploaded}</span></Alert>}

      {!readOnly && (
        <div className={formStyles.field}>
          <label htmlFor={`${baseId}-upload`} className={formStyles.label}>{t('editions.upload.label')}</label>
          <input id={`${baseId}-upload`} type="file" accept="application/json,.json" aria-describedby={`${baseId}-upload-hint`}
            onChange={(e) => void onUpload(e)} data-testid="edition-upload" />
          <p id={`${baseId}-upload-hint`} className={formStyles.hint}>{t('editions.upload.hint')}</p>
        </div>
      )}

      <fieldset className={formStyles.fieldset}>
        <legend>{t('editions.sections.basics')}</legend>
        <div className={styles.grid}>
          {field('year', t('editions.fields.year'), draft.year, (year) => set({ year }), { inputMode: 'numeric', disabled: mode !== 'new' })}
          {field('name.et', t('editions.fields.nameEt'), draft.nameEt, (nameEt) => set({ nameEt }), { lang: 'et' })}
          {field('name.en', t('editions.fields.nameEn'), draft.nameEn, (nameEn) => set({ nameEn }), { lang: 'en' })}
          {field('timeZone', t('editions.fields.timeZone'), draft.timeZone, (timeZone) => set({ timeZone }))}
        </div>
      </fieldset>

      <fieldset className={formStyles.fieldset}>
        <legend>{t('editions.sections.dates')}</legend>
        <div className={styles.grid}>
          {field('registrationOpens', t('editions.fields.registrationOpens'), draft.registrationOpens, (registrationOpens) => set({ registrationOpens }), { type: 'date' })}
          {field('startDate', t('editions.fields.startDate'), draft.startDate, (startDate) => set({ startDate }), { type: 'date' })}
          {field('endDate', t('editions.fields.endDate'), draft.endDate, (endDate) => set({ endDate }), { type: 'date' })}
          {field('lateEntriesUntil', t('editions.fields.lateEntriesUntil'), draft.lateEntriesUntil, (lateEntriesUntil) => set({ lateEntriesUntil }), { type: 'date' })}
          {field('prizeDraw', t('editions.fields.prizeDraw'), draft.prizeDraw, (prizeDraw) => set({ prizeDraw }), { type: 'datetime-local', hint: t('editions.localTimeHint') })}
        </div>
      </fieldset>

      <fieldset className={formStyles.fieldset}>
        <legend>{t('editions.sections.fees')}</legend>
        <div className={styles.grid}>
          {FEE_FIELDS.map((name) => field(`fees.${name}`, t(`editions.fields.fees.${name}`), draft.fees[name],
            (value) => set({ fees: { ...draft.fees, [name]: value } }), { inputMode: 'decimal', hint: euros }))}
          {field('fees.childFromBirthYear', t('editions.fields.fees.childFromBirthYear'), draft.childFromBirthYear, (childFromBirthYear) => set({ childFromBirthYear }), { inputMode: 'numeric' })}
        </div>
      </fieldset>

      <fieldset className={formStyles.fieldset}>
        <legend>{t('editions.sections.limits')}</legend>
        <div className={styles.grid}>
          {LIMIT_FIELDS.map((name) => field(`limits.${name}`, t(`editions.fields.limits.${name}`), draft.limits[name],
            (value) => set({ limits: { ...draft.limits, [name]: value } }), { inputMode: 'numeric' }))}
        </div>
      </fieldset>

      <fieldset className={formStyles.fieldset}>
        <legend>{t('editions.sections.flowers')}</legend>
        <div className={styles.grid}>
          {FLOWER_FIELDS.map((name) => field(`flowers.${name}`, t(`editions.fields.flowers.${name}`), draft.flowers[name],
            (value) => set({ flowers: { ...draft.flowers, [name]: value } }), { inputMode: 'decimal' }))}
          {TEAM_DOT_FIELDS.map((name) => field(`teamDots.${name}`, t(`editions.fields.teamDots.${name}`), draft.teamDots[name],
            (value) => set({ teamDots: { ...draft.teamDots, [name]: value } }), { inputMode: 'decimal' }))}
        </div>
      </fieldset>

      <fieldset className={formStyles.fieldset}>
        <legend>{t('editions.sections.rules')}</legend>
        {textArea('moderation', t('editions.fields.moderation'), draft.moderation, (moderation) => set({ moderation }), 8)}
        <p className={formStyles.hint}>{t('editions.moderationHint')}</p>
        {textArea('drawRules.et', t('editions.fields.drawRulesEt'), draft.drawRulesEt, (drawRulesEt) => set({ drawRulesEt }), 3, 'et')}
        {textArea('drawRules.en', t('editions.fields.drawRulesEn'), draft.drawRulesEn, (drawRulesEn) => set({ drawRulesEn }), 3, 'en')}
      </fieldset>

      <fieldset className={formStyles.fieldset}>
        <legend>{t('editions.sections.route')}</legend>
        <p className={formStyles.hint}>{t('editions.routeHint')}</p>
        <div className={tableStyles.scroller} role="region" aria-label={t('editions.sections.route')} tabIndex={0}>
          <table className={tableStyles.table} data-testid="edition-missions">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">{t('editions.mission.nameEt')}</th>
                <th scope="col">{t('editions.mission.nameEn')}</th>
                <th scope="col">{t('editions.mission.descriptionEt')}</th>
                <th scope="col">{t('editions.mission.descriptionEn')}</th>
                <th scope="col">{t('editions.mission.km')}</th>
                <th scope="col">{t('editions.mission.position')}</th>
                {!readOnly && <th scope="col"><span className="sr-only">{t('editions.mission.actions')}</span></th>}
              </tr>
            </thead>
            <tbody>
              {draft.missions.map((m, index) => {
                const at = `route.missions[${index}]`;
                const cell = (column: 'nameEt' | 'nameEn' | 'descriptionEt' | 'descriptionEn' | 'km' | 'position', path: string, language?: 'et' | 'en') => (
                  <td>
                    <input className={formStyles.input} value={m[column]} lang={language} readOnly={readOnly} autoComplete="off"
                      inputMode={column === 'km' ? 'decimal' : undefined}
                      aria-label={t('editions.mission.cellLabel', { n: index + 1, column: t(`editions.mission.${column}`) })}
                      aria-invalid={names(problems, `${at}.${path}`)}
                      onChange={(e) => setMission(index, { [column]: e.target.value })} data-testid={`edition-mission-${index}-${column}`} />
                  </td>
                );
                return (
                  <tr key={m.id} data-testid="edition-mission-row" className={names(problems, at) ? styles.invalidRow : undefined}>
                    <td>{index + 1}</td>
                    {cell('nameEt', 'name.et', 'et')}
                    {cell('nameEn', 'name.en', 'en')}
                    {cell('descriptionEt', 'description.et', 'et')}
                    {cell('descriptionEn', 'description.en', 'en')}
                    {cell('km', 'distance')}
                    {cell('position', 'position')}
                    {!readOnly && (
                      <td className={styles.rowActions}>
                        <button type="button" className={formStyles.iconButton} onClick={() => moveMission(index, -1)} disabled={index === 0}
                          aria-label={t('editions.mission.up', { n: index + 1 })}>↑</button>
                        <button type="button" className={formStyles.iconButton} onClick={() => moveMission(index, 1)} disabled={index === draft.missions.length - 1}
                          aria-label={t('editions.mission.down', { n: index + 1 })}>↓</button>
                        <button type="button" className={formStyles.iconButton} data-testid={`edition-mission-${index}-remove`}
                          onClick={() => set({ missions: draft.missions.filter((_, i) => i !== index) })}
                          aria-label={t('editions.mission.remove', { n: index + 1 })}>✕</button>
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {!readOnly && (
          <div className={formStyles.actions}>
            <button type="button" className={formStyles.buttonSecondary} onClick={() => set({ missions: [...draft.missions, newMission(draft.missions)] })} data-testid="edition-mission-add">
              {t('editions.mission.add')}
            </button>
          </div>
        )}
      </fieldset>

      <div className={formStyles.actions}>
        {!readOnly && (
          <SubmitButton pending={pending} testId="edition-save">
            {mode === 'new' ? t('editions.savePlan') : t('editions.saveChanges')}
          </SubmitButton>
        )}
        <button type="button" className={formStyles.buttonSecondary} onClick={onCancel} data-testid="edition-cancel">
          {readOnly ? t('editions.back') : t('editions.cancel')}
        </button>
      </div>
    </form>
  );
}

/** The editor's title of an edition in the page's language ("Sinilill 2026"). */
export function editionName(edition: Edition, lang: 'et' | 'en'): string {
  return edition.name?.[lang] || String(edition.year);
}
