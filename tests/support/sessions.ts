/**
 * Sessions for tests that call authenticated routes with tokens they sign themselves.
 *
 * An access token is accepted only with its account's current session version (`sv`) and a live
 * session (`sid`), so a token signed for a made-up user gets 401. `testSessions` gives an
 * AccountService over the test database — pass it as buildCommandApi's `sessions` (the query API
 * reads the same tables by itself) — and:
 *
 * - `enrol(...people)`: each person (spec §3 claims; userId a UUID) becomes a real, approved
 *   account in the log unless it is there already — an ADMIN without participant as the first
 *   administrator is made (AdminRegistered), anyone else as registration makes them
 *   (UserRegistered) — and gets a live session (AccountService.renewSession). Enrolling again
 *   after something ended the account's sessions starts a new one.
 * - `access(claims)`: the claims plus the session's `sv` and `sid`, synchronously (enrol first):
 *   the test still signs exactly the claims it means to test, stale team or role claims included.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type {} from '@fastify/jwt'; // app.jwt's type
import { AccountDirectory, AccountService, handleCommand, type IdAllocator } from '@sinilill/commands';
import type { AccessClaims, SessionClaims } from '@sinilill/contracts';
import { accountDecider, streams, type ActingUser } from '@sinilill/domain';
import { edition2025 } from '@sinilill/domain/seed';
import type { EventStore } from '@sinilill/event-store';
import type { Mailer } from '@sinilill/mail';
import type pg from 'pg';

const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };

/** A mailer that sends nothing (these accounts are made approved). */
export const NO_MAIL: Mailer = { send: async () => undefined, close: () => undefined };

export interface TestSessions {
  /** The AccountService over the test database: buildCommandApi's `sessions` (or `accounts`). */
  accounts: AccountService;
  directory: AccountDirectory;
  /** Makes each person an approved account (if needed) with a live session. */
  enrol(...people: SessionClaims[]): Promise<void>;
  /** The claims with the person's session version and session (enrol first; throws otherwise). */
  access(claims: SessionClaims): AccessClaims;
  /** `Bearer <token>` of access(claims), signed by `api`. */
  bearer(api: FastifyInstance, claims: SessionClaims): string;
}

/**
 * Sessions over the test application's database. `now` is the AccountService's clock (refresh
 * tokens expire 30 days after it); default the real one.
 */
export function testSessions(app: { pool: pg.Pool; store: EventStore; ids: IdAllocator }, options: { now?: () => Date } = {}): TestSessions {
  const now = options.now ?? (() => new Date());
  const directory = new AccountDirectory({ pool: app.pool, indexSecret: 'test-index-secret-0123456789' });
  const accounts = new AccountService({ store: app.store, ids: app.ids, directory, mailer: NO_MAIL, now, publicUrl: 'http://sinilill.test' });
  const live = new Map<string, { sv: number; sid: string }>();

  async function createAccount(person: SessionClaims): Promise<void> {
    const { userId } = person;
    const commandId = `test-account:${userId}:${randomUUID()}`;
    // An account's limits are an edition's (its e-mail's and name's lengths): the seed's 2025.
    const ctx = { now: now().toISOString(), actor: SYSTEM, entryInsertionEnabled: true, edition: edition2025 };
    const metadata = { commandId, correlationId: commandId, causationId: null };
    const email = `${userId.slice(0, 8)}@example.ee`;
    const fullName = person.fullName.slice(0, 32) || 'Test Person';
    if (person.role === 'ADMIN' && person.participantId === null) {
      await handleCommand(app.store, streams.user(userId), accountDecider, {
        type: 'EnsureAdmin', data: { userId, email, fullName, password: 'test-password', passwordMatches: false },
      }, ctx, metadata);
      return;
    }
    await handleCommand(app.store, streams.user(userId), accountDecider, {
      type: 'RegisterUser',
      data: {
        // An account needs a participant id; a USER without one in the claims gets one no participant has.
        userId, participantId: person.participantId ?? 999_000 + live.size, email, fullName, role: person.role,
        approved: true, hasPassword: false, lang: 'est', registrationEnabled: true,
      },
    }, ctx, metadata);
  }

  const access = (claims: SessionClaims): AccessClaims => {
    const session = live.get(claims.userId);
    if (!session) throw new Error(`testSessions: enrol ${claims.userId} before signing its token`);
    return { ...claims, ...session };
  };

  return {
    accounts,
    directory,
    access,
    async enrol(...people) {
      for (const person of people) {
        const known = live.get(person.userId);
        if (known) {
          const state = await directory.sessionState(person.userId, known.sid);
          if (state && !state.ended && state.familyLive && state.version === known.sv) continue;
        }
        if (!(await accounts.account(person.userId)).exists) await createAccount(person);
        const session = await accounts.renewSession(person.userId);
        live.set(person.userId, { sv: session.claims.sv, sid: session.claims.sid });
      }
    },
    bearer: (api, claims) => `Bearer ${api.jwt.sign(access(claims))}`,
  };
}
