/**
 * The decider pattern (as in Emmett): a pure `decide` turns a command and the current state into
 * new events (or throws DomainError with a catalogue code); a pure `evolve` folds an event into
 * the state. Time, ids and randomness arrive in the command or the context, never from globals.
 */
import type { Edition } from './edition/types';
import { DomainError } from './errors';

/** Who is acting, as the server knows it (from a verified token, or the system). */
export interface ActingUser {
  userId: string | null;
  role: 'USER' | 'ADMIN' | 'SYSTEM';
  /** The actor's participant id and team id, when the actor is a participant. */
  participantId: number | null;
  teamId: number | null;
}

/** What every decision may consult besides the command and the state. */
export interface DecisionContext {
  /** The decision's instant, ISO-8601 UTC (the configured clock; the original time for imports). */
  now: string;
  actor: ActingUser;
  /** The global entry-insertion switch (spec §4), on unless an admin turned it off. */
  entryInsertionEnabled: boolean;
  /**
   * The edition the site runs at `now` (EditionCatalog.current): its dates, fees, limits and
   * rules apply to the decision. Absent only where no edition exists yet; a decider built for a
   * fixed edition (createEntryDecider(edition)) ignores it.
   */
  edition?: Edition;
}

export interface Decider<Command, Event, State, Context = DecisionContext> {
  initialState: () => State;
  /** @throws DomainError with a spec §8 (or product) code when the command breaks a rule. */
  decide: (command: Command, state: State, context: Context) => Event[];
  evolve: (state: State, event: Event) => State;
}

/**
 * The edition a decision runs under: the decider's own (built for a fixed edition) or the
 * context's (the current one).
 * @throws DomainError('REGISTRATION_NOT_OPEN') when there is neither: no edition exists yet.
 */
export function editionOfDecision(fixed: Edition | undefined, ctx: DecisionContext): Edition {
  const edition = fixed ?? ctx.edition;
  if (!edition) throw new DomainError('REGISTRATION_NOT_OPEN', 'no edition has been planned and opened');
  return edition;
}
