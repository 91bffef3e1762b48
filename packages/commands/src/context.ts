/**
 * What the team, participant, entry, payment and deletion handlers share: their dependencies
 * (CommandService's), the decision context of a request, and the reads of other streams a
 * handler gathers facts from. Authorization and validation are the deciders' (spec §5, §6, §8);
 * the handlers only gather facts and run the write path (execute-command.ts).
 */
import {
  editionForChanges,
  isPrivileged,
  participantDecider,
  streams,
  teamDecider,
  withEdition,
  type ActingUser,
  type DecisionContext,
  type ParticipantState,
  type TeamDay,
  type TeamState,
} from '@sinilill/domain';
import type { EventStore } from '@sinilill/event-store';
import type { AccountDirectory } from './account/directory';
import { foldStream, type CommandRequest } from './metadata';
import type { IdAllocator } from './ids';
import { readSettings, type SettingsCache } from './settings/settings-cache';
import { storeEditionSource, type EditionSource } from './edition/catalog';
import type { StreamIndex } from './stream-index';
import type { TeamDayFigures } from './entry/team-day-figures';

/** What the CommandService and its handlers need. */
export interface CommandServiceDependencies {
  store: EventStore;
  ids: IdAllocator;
  /** The configured clock. */
  now: () => Date;
  /**
   * The global entry-insertion switch (spec §4). Default: read from the `settings` stream (on
   * until an administrator turns it off). Not consulted for ADMIN and SYSTEM, whom it does not bind.
   */
  entryInsertionEnabled?: () => Promise<boolean> | boolean;
  /**
   * The account tables (indexes of team names, join codes and e-mails). Without it, teams and
   * participants are registered without index entries or accounts (tools and tests that need
   * neither).
   */
  directory?: AccountDirectory;
  /**
   * Erases a personal-data subject (the event store's PersonalDataVault.forget): deleting a user
   * or a team destroys the person's key (docs/decisions/0002). Needed by deleteUsers and deleteTeams only.
   */
  personalData?: { forget(subject: string): Promise<void> };
  /**
   * The log's filtered reads, for the stream index (stream-index.ts): deletions find a team's
   * members and entries and a participant's entries there, not in the read models. The command
   * API passes its event store (either engine).
   */
  streamIndex?: StreamIndex;
  /**
   * The global switches kept current by the log (settings.ts SettingsCache):
   * decisions read the cached value, and the entry commands bring it up to date in the same round
   * trip as their streams. Without it the `settings` stream is folded per command.
   */
  settings?: SettingsCache;
  /**
   * The participant ids of a team's members, for a company team's fee (rm.team_members); each is
   * checked against its own stream before the fee covers it. Deletions do not use it: they read
   * the stream index (streamIndex).
   */
  membersOfTeam?: (teamId: number) => Promise<number[]>;
  /**
   * The ids of the orders with a reference (rm.payment_orders), for an administrator's refund by
   * reference; the order's own stream decides everything else.
   */
  ordersOfReference?: (reference: string) => Promise<string[]>;
  /**
   * The participant's team's day for the TEAM_DAY_OUTLIER moderation rule: the
   * team's other live entries of `day` (without `entryId`, hundredths), its members, and every other
   * team's km per member that day (rm.team_entries, rm.team_stats, rm.team_daily_distance). A
   * heuristic: as current as the read models; absent, the rule is not applied.
   */
  teamDayOf?: (participantId: number, day: string, entryId: number) => Promise<TeamDay | null>;
  /**
   * The same figures held warm in memory (entry/team-day-figures.ts): a new entry reads them from
   * there (no round trip once its day is held) and adds itself after its commit. Edits still ask
   * `teamDayOf` (the edited entry's own km must be left out). Absent: `teamDayOf` for every entry.
   */
  teamDays?: TeamDayFigures;
  /**
   * The editions (edition/catalog.ts): the current one goes into every decision's context.
   * Default: folded from this store's `edition-*` streams, kept 5 s.
   */
  editions?: EditionSource;
}

const defaultSources = new WeakMap<EventStore, EditionSource>();

/** The dependencies' EditionSource, or one on their store (one per store, so its cache is shared). */
export function editionSourceOf(deps: Pick<CommandServiceDependencies, 'store' | 'editions'>): EditionSource {
  if (deps.editions) return deps.editions;
  let source = defaultSources.get(deps.store);
  if (!source) defaultSources.set(deps.store, (source = storeEditionSource(deps.store)));
  return source;
}

/**
 * The decision context of a request: its instant (the request's, else the clock's), the actor,
 * the entry-insertion switch (spec §4; never read for ADMIN and SYSTEM, whom it does not bind:
 * the importer's 19 000 entries skip the read), and the edition current at that instant
 * (EditionCatalog.current; absent when no edition has begun).
 */
export async function decisionContext(deps: CommandServiceDependencies, request: CommandRequest): Promise<DecisionContext> {
  const privileged = isPrivileged(request.actor);
  const now = (request.now ?? deps.now()).toISOString();
  const edition = (await editionSourceOf(deps).catalog()).current(now)?.edition;
  return {
    now,
    ...(edition ? { edition } : {}),
    actor: request.actor,
    entryInsertionEnabled: privileged ? true : deps.settings
      ? deps.settings.current().entryInsertionEnabled
      : deps.entryInsertionEnabled
        ? await deps.entryInsertionEnabled()
        : (await readSettings(deps.store)).entryInsertionEnabled,
  };
}

/**
 * The decision context of a change to a team or participant of edition `year` (its public
 * attributes, its join code, a payment): the request's, deciding under that edition's limits and
 * fees (domain editionForChanges).
 * @throws DomainError EDITION_CLOSED when that edition is closed (read-only).
 */
export async function changeContext(deps: CommandServiceDependencies, request: CommandRequest, year: number | null): Promise<DecisionContext> {
  const [ctx, catalog] = await Promise.all([decisionContext(deps, request), editionSourceOf(deps).catalog()]);
  return withEdition(ctx, editionForChanges(catalog, year, ctx));
}

/** The participant's state from its stream (`exists` false for an unknown participant). */
export async function participantState(store: EventStore, participantId: number): Promise<ParticipantState> {
  return foldStream(participantDecider, await store.readStream(streams.participant(participantId)));
}

/** The team's state from its stream (`exists` false for an unknown team). */
export async function teamState(store: EventStore, teamId: number): Promise<TeamState> {
  return foldStream(teamDecider, await store.readStream(streams.team(teamId)));
}

/** The team of a live participant (null: unknown or deleted; AddEntry and EditEntry then answer NOT_FOUND). */
export function teamOfParticipant(state: ParticipantState): number | null {
  return state.exists && !state.deleted ? state.teamId : null;
}

/**
 * The acting user with the team read from the event log (not trusted from the token), so a
 * stale or forged teamId claim grants nothing.
 */
export async function resolveActor(store: EventStore, actor: ActingUser): Promise<ActingUser> {
  if (actor.role !== 'USER' || actor.participantId === null) return { ...actor, teamId: actor.role === 'USER' ? null : actor.teamId };
  return { ...actor, teamId: teamOfParticipant(await participantState(store, actor.participantId)) };
}

/** The dependency, or an Error naming what `purpose` needs (a wiring mistake, not a refusal). */
export function required<T>(dependency: T | undefined, name: string, purpose: string): T {
  if (dependency === undefined) throw new Error(`CommandService: ${name} is needed ${purpose}`);
  return dependency;
}
