/**
 * Given / when / then for deciders (house style, as Emmett's DeciderSpecification):
 *
 *   const { given } = deciderSpec(entryDecider);
 *   given([entryAdded]).when(deleteEntry, ctx).then([entryDeleted]);
 *   given([]).when(deleteEntry, ctx).then('NOT_FOUND');
 *
 * For tests only (uses vitest's expect); import it by path: '@sinilill/domain/testing'.
 */
import { expect } from 'vitest';
import type { ActingUser, Decider, DecisionContext } from './decider';
import { DomainError } from './errors';
import type { ErrorCode } from './errors';
import { edition2025 } from './edition/seed';

export interface Then<Event, State> {
  /**
   * Asserts the decision: the exact events (toEqual), or a DomainError with that code. Returns
   * the events (or the error) for further checks.
   */
  then: (expected: Event[] | ErrorCode) => Event[] | DomainError;
  /** Asserts the state after folding the given events and the decided ones. */
  thenState: (expected: State) => State;
}

export interface When<Command, Event, State> {
  /** `ctx` defaults to testContext(). */
  when: (command: Command, ctx?: DecisionContext) => Then<Event, State>;
}

export interface DeciderSpec<Command, Event, State> {
  given: (events: Event[]) => When<Command, Event, State>;
}

/** Binds a decider for given/when/then tests. */
export function deciderSpec<Command, Event, State>(
  decider: Decider<Command, Event, State>,
): DeciderSpec<Command, Event, State> {
  return {
    given: (events) => ({
      when: (command, ctx = testContext()) => {
        const state = events.reduce(decider.evolve, decider.initialState());
        const run = () => decider.decide(command, state, ctx);
        return {
          then: (expected) => {
            if (typeof expected === 'string') {
              let produced: Event[] | undefined;
              let caught: unknown;
              try {
                produced = run();
              } catch (error) {
                caught = error;
              }
              if (produced !== undefined) {
                expect.fail(`expected DomainError ${expected}, got events ${JSON.stringify(produced)}`);
              }
              expect(caught).toBeInstanceOf(DomainError);
              expect((caught as DomainError).code).toBe(expected);
              return caught as DomainError;
            }
            const produced = run();
            expect(produced).toEqual(expected);
            return produced;
          },
          thenState: (expected) => {
            const after = run().reduce(decider.evolve, state);
            expect(after).toEqual(expected);
            return after;
          },
        };
      },
    }),
  };
}

/** An administrator (spec §6). */
export const adminActor: ActingUser = { userId: 'admin-1', role: 'ADMIN', participantId: null, teamId: null };
/** The system itself (imports, payment callbacks, operators' tools). */
export const systemActor: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
/** A visitor: no token (the HTTP layer answers UNAUTHORIZED before a decider sees it). */
export const visitorActor: ActingUser = { userId: null, role: 'USER', participantId: null, teamId: null };

/** A participant acting as a USER (userId `user-{participantId}`). */
export function participantActor(participantId: number, teamId: number | null): ActingUser {
  return { userId: `user-${participantId}`, role: 'USER', participantId, teamId };
}

/**
 * A decision context for tests: now = 2025-04-10T09:00:00Z (mid-event), actor = participant 1 of
 * team 1, entry insertion on; each overridable.
 */
export function testContext(overrides: Partial<DecisionContext> = {}): DecisionContext {
  return {
    now: '2025-04-10T09:00:00.000Z',
    actor: participantActor(1, 1),
    entryInsertionEnabled: true,
    edition: edition2025,
    ...overrides,
  };
}
