import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, ErrorAlert } from '../../../components/ui/form/alert';
import { RadioGroup, SwitchField, TextField } from '../../../components/ui/form/field';
import { SubmitButton } from '../../../components/ui/form/submit-button';
import { checkText, type FieldProblem } from '../../../lib/form-validation';
import { formatDay } from '../../../lib/format-date';
import { formatEuros } from '../../../lib/format-money';
import { useSessionStore } from '../../../lib/session-store';
import { useAction } from '../../../lib/use-action';
import { useLang } from '../../../lib/use-lang';
import { editionsQuery, type EditionView } from '../../../lib/edition';
import { getTeam, inviteReturning, joinEdition, untilTeamReadable, type JoinEditionBody } from '../api/returning';
import { useJoinedStore, type Joined } from '../stores/joined-store';
import { joinableEdition } from '../utils/returning';
import formStyles from '../../../components/ui/form/form.module.css';
import styles from './join-edition.module.css';

type Mode = JoinEditionBody['mode'];

/**
 * The join, then the session renewed the way a login renews it: the account now names the new
 * participant and team (their claims are in the new token), once the read side shows the new
 * team. The reads of the person's data are keyed by participant, team or token, so the new ones
 * are read as the pages need them.
 */
async function joinAndRefresh(year: number, body: JoinEditionBody) {
  const answer = await joinEdition(year, body);
  await untilTeamReadable(answer.teamId, answer.token, answer.position);
  const session = useSessionStore.getState();
  // The answer's token names the new participant; should it not decode, the refresh cookie the join set does.
  if (!session.login(answer.token)) await session.refresh();
  return answer;
}

/**
 * "Join {edition}" on the account page: shown to a logged-in person whose participant belongs to
 * an earlier edition while the current edition takes registrations (utils/returning.ts). The
 * person keeps last year's team (a new team of this edition with its name, continuing it), names
 * a new team (a company team pays the company fee per person, spec §9), or joins a team of this
 * edition with its join code — one step, the same account and profile. After joining: the way to
 * the pay page (the new edition's fee) and, for a re-opened team, "Invite last year's members"
 * (mails each of them who has not joined yet, in their language, with the new join code).
 * Test ids: join-edition, join-edition-mode-*, join-edition-team-name, join-edition-join-code,
 * join-edition-submit, join-edition-done, join-edition-pay, join-edition-invite,
 * join-edition-invited.
 */
export function JoinEdition() {
  const participantId = useSessionStore((s) => s.identity.participantId);
  const teamId = useSessionStore((s) => s.identity.teamId);
  const isAdmin = useSessionStore((s) => s.identity.isAdmin);
  const userId = useSessionStore((s) => s.identity.userId);
  const justJoined = useJoinedStore((s) => s.joined);
  const markJoined = useJoinedStore((s) => s.markJoined);
  const joined = justJoined?.userId === userId ? justJoined : null;
  const editions = useQuery(editionsQuery);
  const registrationOpen = editions.data?.current?.registrationOpen === true;
  const team = useQuery({
    queryKey: ['account', 'session-team', teamId],
    queryFn: ({ signal }) => getTeam(teamId!, signal),
    // Only worth reading when there is an edition to join.
    enabled: teamId !== null && registrationOpen && !isAdmin && joined === null,
  });
  const edition = joinableEdition(editions.data, { participantId, teamId, isAdmin }, team.data?.created_at);

  if (joined) return <JoinedEdition joined={joined} />;
  if (!edition || !team.data) return null;
  return <JoinForm edition={edition} lastTeam={{ id: team.data.id, name: team.data.team_name }} onJoined={(done) => markJoined(userId, done)} />;
}

/**
 * The join itself: last year's team (`lastTeam`, re-opened under its name), a new team (a company
 * team optionally) or a join code; names and codes are checked for presence and the edition's
 * lengths before sending. `onJoined` gets what the join answered once the session is renewed.
 */
export function JoinForm({ edition, lastTeam, onJoined }: {
  edition: EditionView;
  lastTeam: { id: number; name: string };
  onJoined: (joined: Joined) => void;
}) {
  const { t } = useTranslation('account');
  const lang = useLang();
  const [mode, setMode] = useState<Mode>('reopenTeam');
  const [teamName, setTeamName] = useState('');
  const [company, setCompany] = useState(false);
  const [joinCode, setJoinCode] = useState('');
  const [problems, setProblems] = useState<{ teamName?: FieldProblem; joinCode?: FieldProblem }>({});
  const joining = useAction(joinAndRefresh);
  const headingId = useId();
  const e = edition.edition;
  const name = e.name[lang];

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = {
      teamName: mode === 'newTeam' ? checkText(teamName, { max: e.limits.teamNameMax }) : undefined,
      joinCode: mode === 'joinCode' ? checkText(joinCode, { max: e.limits.joinCodeMax }) : undefined,
    };
    setProblems(found);
    if (found.teamName || found.joinCode) return;
    const body: JoinEditionBody = mode === 'newTeam' ? { mode, teamName: teamName.trim(), ...(company ? { company: true } : {}) }
      : mode === 'joinCode' ? { mode, joinCode: joinCode.trim() } : { mode, teamId: lastTeam.id };
    const outcome = await joining.run(edition.year, body);
    if (outcome.ok) onJoined({ edition, teamId: outcome.result.teamId, joinCode: outcome.result.joinCode, reopened: mode === 'reopenTeam' });
  };

  return (
    <section className={styles.section} aria-labelledby={headingId} data-testid="join-edition" data-year={edition.year}>
      <h2 id={headingId} className={styles.heading}>{t('join.heading', { name })}</h2>
      <p>{t('join.intro', { name, start: formatDay(e.startDate, lang), end: formatDay(e.endDate, lang) })}</p>
      <form className={formStyles.form} onSubmit={(ev) => void onSubmit(ev)} noValidate>
        {joining.state.status === 'error' && <ErrorAlert code={joining.state.code} />}
        <div data-testid="join-edition-modes">
          <RadioGroup
            name="join-mode"
            legend={t('join.how')}
            value={mode}
            onChange={(value) => setMode(value as Mode)}
            options={[
              { value: 'reopenTeam', label: t('join.reopenTeam', { team: lastTeam.name }), description: t('join.reopenTeamHint') },
              { value: 'newTeam', label: t('join.newTeam'), description: t('join.newTeamHint') },
              { value: 'joinCode', label: t('join.joinCode'), description: t('join.joinCodeHint') },
            ]}
          />
        </div>
        {mode === 'newTeam' && (
          <>
            <TextField name="teamName" label={t('join.teamName')} value={teamName} onChange={setTeamName} problem={problems.teamName}
              autoComplete="off" inputProps={{ 'data-testid': 'join-edition-team-name' }} />
            <SwitchField name="company" label={t('join.company', { amount: formatEuros(e.fees.companyPerPersonCents, lang) })} checked={company} onChange={setCompany} />
          </>
        )}
        {mode === 'joinCode' && (
          <TextField name="joinCode" label={t('join.joinCodeField')} value={joinCode} onChange={setJoinCode} problem={problems.joinCode}
            autoComplete="off" inputProps={{ 'data-testid': 'join-edition-join-code' }} />
        )}
        <p className={formStyles.hint}>{t('join.fee', { adult: formatEuros(e.fees.adultCents, lang), child: formatEuros(e.fees.childCents, lang), year: e.fees.childFromBirthYear })}</p>
        <div className={formStyles.actions}>
          <SubmitButton pending={joining.pending} testId="join-edition-submit">{t('join.submit', { name })}</SubmitButton>
        </div>
      </form>
    </section>
  );
}

/** After joining: the join code, the way to pay, and for a re-opened team the invitations. */
function JoinedEdition({ joined }: { joined: Joined }) {
  const { t } = useTranslation('account');
  const lang = useLang();
  const inviting = useAction(inviteReturning);
  const headingId = useId();
  const name = joined.edition.edition.name[lang];
  return (
    <section className={styles.section} aria-labelledby={headingId} data-testid="join-edition-done" data-team-id={joined.teamId}>
      <h2 id={headingId} className={styles.heading}>{t('join.doneHeading', { name })}</h2>
      <Alert variant="success">{t('join.done', { name })}</Alert>
      {joined.joinCode && <p>{t('join.yourCode')} <strong data-testid="join-edition-code">{joined.joinCode}</strong></p>}
      {joined.reopened && (
        <div className={styles.invite}>
          <p>{t('join.inviteText')}</p>
          {inviting.state.status === 'error' && <ErrorAlert code={inviting.state.code} />}
          {inviting.state.status === 'success' ? (
            <Alert variant="success">
              <span data-testid="join-edition-invited" data-count={inviting.state.result.invited}>
                {t('join.invited', { count: inviting.state.result.invited })}
              </span>
            </Alert>
          ) : (
            <SubmitButton type="button" pending={inviting.pending} testId="join-edition-invite" onClick={() => void inviting.run(joined.teamId)}>
              {t('join.invite')}
            </SubmitButton>
          )}
        </div>
      )}
      <div className={formStyles.actions}>
        <Link to="/pay" className={formStyles.button} data-testid="join-edition-pay">{t('join.pay')}</Link>
      </div>
    </section>
  );
}
