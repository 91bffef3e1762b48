import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, ErrorAlert } from '../../../components/ui/form/alert';
import { SubmitButton } from '../../../components/ui/form/submit-button';
import { parseDecimal } from '../../../lib/parse-decimal';
import { useAction } from '../../../lib/use-action';
import { commitDraw, newSeed, revealDraw, sha256Hex } from '../../draw/api/draw';
import formStyles from '../../../components/ui/form/form.module.css';

/** Sends only the seed's SHA-256: the seed itself stays with the administrator until the draw. */
async function commit(input: { seed: string; drawAt: string; winners: number }) {
  return commitDraw({ commitment: await sha256Hex(input.seed), drawAt: input.drawAt, winners: input.winners });
}

/** The draw's bounds on the number of winners (the server's commit schema takes 1 to 100). */
const WINNERS_MIN = 1;
const WINNERS_MAX = 100;

/**
 * The number of winners typed, or null when it is not a whole number from WINNERS_MIN to
 * WINNERS_MAX: a text field read by parseDecimal, as every number field of the site is, so that a
 * browser's number input never turns what was typed into something else.
 */
function winnerCount(text: string): number | null {
  const parsed = parseDecimal(text, { maxDecimals: 0 });
  return parsed.ok && parsed.value >= WINNERS_MIN && parsed.value <= WINNERS_MAX ? parsed.value : null;
}

/**
 * The draw tab (`?tab=draw`): before the draw, generate a secret seed in the
 * browser (crypto.getRandomValues, 64 hex digits), shown once for the administrator to keep, and
 * publish its SHA-256 with the draw's time (a local time in Tallinn, sent as +03:00: the draw is
 * in May, summer time) and the number of winners; at the draw, paste the seed to reveal it and
 * draw the winners (the public page /loos shows the result). Test ids: admin-draw-new-seed,
 * admin-draw-seed, admin-draw-at, admin-draw-winners, admin-draw-commit, admin-draw-reveal-seed,
 * admin-draw-reveal, admin-draw-done.
 */
export function DrawTab() {
  const { t } = useTranslation('admin');
  const [seed, setSeed] = useState('');
  const [drawAt, setDrawAt] = useState('2025-05-05T17:00');
  const [winnersText, setWinnersText] = useState('10');
  const winners = winnerCount(winnersText);
  const [revealSeed, setRevealSeed] = useState('');
  const committing = useAction(commit);
  const revealing = useAction(revealDraw);
  const ids = { seed: useId(), at: useId(), winners: useId(), winnersProblem: useId(), reveal: useId() };

  const onCommit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (seed === '' || winners === null) return;
    void committing.run({ seed, drawAt: `${drawAt}:00+03:00`, winners });
  };
  const onReveal = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void revealing.run(revealSeed.trim());
  };

  return (
    <div>
      <h2>{t('draw.commitHeading')}</h2>
      <form className={formStyles.form} onSubmit={onCommit} noValidate>
        {committing.state.status === 'error' && <ErrorAlert code={committing.state.code} />}
        {committing.state.status === 'success' && <Alert variant="success">{t('draw.committed')}</Alert>}
        <p>{t('draw.seedHint')}</p>
        <div className={formStyles.actions}>
          <button type="button" className={formStyles.buttonSecondary} data-testid="admin-draw-new-seed" onClick={() => setSeed(newSeed())} disabled={seed !== ''}>
            {t('draw.newSeed')}
          </button>
        </div>
        {seed !== '' && (
          <div className={formStyles.field}>
            <label htmlFor={ids.seed} className={formStyles.label}>{t('draw.seed')}</label>
            <input id={ids.seed} className={formStyles.input} readOnly value={seed} data-testid="admin-draw-seed" />
          </div>
        )}
        <div className={formStyles.field}>
          <label htmlFor={ids.at} className={formStyles.label}>{t('draw.drawAt')}</label>
          <input id={ids.at} type="datetime-local" className={formStyles.input} value={drawAt} onChange={(e) => setDrawAt(e.target.value)} data-testid="admin-draw-at" />
        </div>
        <div className={formStyles.field}>
          <label htmlFor={ids.winners} className={formStyles.label}>{t('draw.winners')}</label>
          <input id={ids.winners} type="text" inputMode="numeric" autoComplete="off" className={formStyles.input} value={winnersText}
            aria-invalid={winners === null} aria-describedby={winners === null ? ids.winnersProblem : undefined}
            onChange={(e) => setWinnersText(e.target.value)} data-testid="admin-draw-winners" />
          {winners === null && <p id={ids.winnersProblem} className={formStyles.problem}>{t('draw.winnersRange', { min: WINNERS_MIN, max: WINNERS_MAX })}</p>}
        </div>
        <div className={formStyles.actions}>
          <SubmitButton pending={committing.pending} testId="admin-draw-commit">{t('draw.commit')}</SubmitButton>
        </div>
      </form>

      <h2>{t('draw.revealHeading')}</h2>
      <form className={formStyles.form} onSubmit={onReveal} noValidate>
        {revealing.state.status === 'error' && <ErrorAlert code={revealing.state.code} />}
        {revealing.state.status === 'success' && <Alert variant="success"><span data-testid="admin-draw-done">{t('draw.revealed')}</span></Alert>}
        <div className={formStyles.field}>
          <label htmlFor={ids.reveal} className={formStyles.label}>{t('draw.revealSeed')}</label>
          <input id={ids.reveal} className={formStyles.input} value={revealSeed} onChange={(e) => setRevealSeed(e.target.value)} autoComplete="off" data-testid="admin-draw-reveal-seed" />
        </div>
        <div className={formStyles.actions}>
          <SubmitButton pending={revealing.pending} testId="admin-draw-reveal">{t('draw.reveal')}</SubmitButton>
        </div>
      </form>
    </div>
  );
}
