/**
 * The Strava stand-in of a browser test run (strava-stand-in/), started once by
 * e2e-global-setup.ts and given to the default shared stack (STRAVA_STACK: the tests' default
 * clock) as its Strava at boot: the stacks read STRAVA_* once at start, and a stack costs ~30 s,
 * so no stack is started just for Strava. Only that stack: Strava keeps one webhook subscription
 * per application and a starting site takes it over, so a stack of another clock booted ahead
 * while the Strava file runs would take its events (docs/decisions/0097).
 *
 * The stand-in lives in the global setup's process while the test files run in workers, so the
 * files drive it over a small control API beside it (HTTP, JSON; `stravaControl()` is its client):
 * athletes and activities made, changed and removed (each with the webhook event Strava would
 * send), deauthorization on Strava's side, rate limits and 429 bursts, the request log and the
 * recorded fixtures. What the app itself calls is the stand-in's own Strava API, as it would call
 * Strava's.
 */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { E2E_STACKS, stackEnv, stackKey } from './e2e-stacks';
import { startStravaStandIn, type DetailedActivity, type PushSubscription, type StravaAthlete, type StravaEvent, type StravaStandIn } from './strava-stand-in';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's Strava stand-in (absent outside the browser tests). */
    stravaE2e: StravaE2e;
  }
}

/** Where the run's stand-in and its control API listen, and the app's credentials at it. */
export interface StravaE2e {
  /** The stand-in: API at `${url}/api/v3`, OAuth at `${url}/oauth`. */
  url: string;
  clientId: string;
  clientSecret: string;
  verifyToken: string;
  /** The control API (this module's `stravaControl()`). */
  controlUrl: string;
}

/** One request the stand-in answered (its log). */
export interface StravaRequest { method: string; path: string; status: number; at: number }

/** The verify token every shared stack sends when it subscribes to the stand-in's webhook events. */
const VERIFY_TOKEN = 'sinilill-e2e-strava-verify-token';

/**
 * Starts the stand-in (approving every authorization at once, as a participant who clicks
 * "Authorize" does) and its control API. `close()` stops both.
 */
export async function startStravaForE2e(): Promise<StravaE2e & { close(): Promise<void> }> {
  const standIn = await startStravaStandIn({ autoApprove: true });
  const control = Fastify({ logger: false });
  registerControl(control, standIn);
  await control.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: standIn.url,
    clientId: standIn.clientId,
    clientSecret: standIn.clientSecret,
    verifyToken: VERIFY_TOKEN,
    controlUrl: `http://127.0.0.1:${(control.server.address() as AddressInfo).port}`,
    close: async () => {
      await control.close();
      await standIn.close();
    },
  };
}

/** The shared stack whose Strava the stand-in is: the tests' default clock, the last day of April 2025. */
export const STRAVA_STACK = E2E_STACKS.april30;

/**
 * The stack broker's boot settings (stack-broker.ts `bootEnv`): the stand-in as Strava for the
 * shared STRAVA_STACK, nothing for any other stack.
 */
export function stravaBootEnv(strava: StravaE2e): (key: string, own: boolean) => Record<string, string> {
  const stravaKey = stackKey(stackEnv(STRAVA_STACK));
  const env: Record<string, string> = {
    STRAVA_CLIENT_ID: strava.clientId,
    STRAVA_CLIENT_SECRET: strava.clientSecret,
    STRAVA_WEBHOOK_VERIFY_TOKEN: strava.verifyToken,
    STRAVA_API_URL: `${strava.url}/api/v3`,
    STRAVA_OAUTH_URL: `${strava.url}/oauth`,
  };
  return (key, own) => (own || key !== stravaKey ? {} : env);
}

function providedStrava(): StravaE2e | undefined {
  try {
    return inject('stravaE2e');
  } catch {
    return undefined;
  }
}

/** What a test may do to the run's stand-in: the StravaStandIn of strava-stand-in/, over HTTP. */
export interface StravaControl {
  readonly url: string;
  addAthlete(athlete: { id?: number; firstname: string; lastname: string }): Promise<StravaAthlete>;
  /** The athlete "logged in to strava.com" in the browser: the one the next authorization grants. */
  signIn(athleteId: number): Promise<void>;
  /** The athlete's live access tokens at Strava (none once the app's access was revoked). */
  tokensOf(athleteId: number): Promise<string[]>;
  /** A new activity of `athleteId` (metres, seconds, ISO dates as Strava's); notifies the subscription unless `notify` is false. */
  createActivity(athleteId: number, payload: Partial<DetailedActivity>, opts?: { notify?: boolean }): Promise<DetailedActivity>;
  updateActivity(id: number, patch: Partial<DetailedActivity>, opts?: { notify?: boolean }): Promise<DetailedActivity>;
  removeActivity(id: number, opts?: { notify?: boolean }): Promise<void>;
  /** The athlete revokes the app on Strava: tokens revoked, the athlete event POSTed to the subscription. */
  deauthorize(athleteId: number): Promise<void>;
  /** POSTs `event` to the subscription's callback again, as Strava's redelivery does; answers the callback's status. */
  deliver(event: StravaEvent): Promise<number>;
  /** Every webhook event the stand-in sent, oldest first. */
  events(): Promise<StravaEvent[]>;
  setRateLimit(limits: { shortLimit: number; longLimit: number; readShortLimit?: number; readLongLimit?: number }): Promise<void>;
  /** The next `count` API calls answer 429. */
  burst429(count: number): Promise<void>;
  usage(): Promise<{ short: number; long: number }>;
  requests(): Promise<StravaRequest[]>;
  fixture(sport: string): Promise<DetailedActivity>;
  /** The app's webhook subscription at Strava, or null. */
  subscription(): Promise<PushSubscription | null>;
}

/** The control API's client, for a test file of the run (throws when the run has no stand-in). */
export function stravaControl(): StravaControl {
  const strava = providedStrava();
  if (!strava) throw new Error('no Strava stand-in in this run (tests/support/e2e-global-setup.ts starts it)');
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${strava.controlUrl}${path}`, {
      method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`Strava control ${method} ${path}: ${response.status} ${text}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  };
  return {
    url: strava.url,
    addAthlete: (athlete) => call('POST', '/athletes', athlete),
    signIn: (athleteId) => call('POST', `/athletes/${athleteId}/sign-in`, {}),
    tokensOf: (athleteId) => call('GET', `/athletes/${athleteId}/tokens`),
    createActivity: (athleteId, payload, opts = {}) => call('POST', '/activities', { athleteId, payload, opts }),
    updateActivity: (id, patch, opts = {}) => call('PATCH', `/activities/${id}`, { patch, opts }),
    removeActivity: (id, opts = {}) => call('DELETE', `/activities/${id}`, { opts }),
    deauthorize: (athleteId) => call('POST', `/athletes/${athleteId}/deauthorize`, {}),
    deliver: async (event) => (await call<{ status: number }>('POST', '/deliver', { event })).status,
    events: () => call('GET', '/events'),
    setRateLimit: (limits) => call('PUT', '/rate-limit', limits),
    burst429: (count) => call('POST', '/burst429', { count }),
    usage: () => call('GET', '/usage'),
    requests: () => call('GET', '/requests'),
    fixture: (sport) => call('GET', `/fixtures/${encodeURIComponent(sport)}`),
    subscription: async () => (await call<{ subscription: PushSubscription | null }>('GET', '/subscription')).subscription,
  };
}

function registerControl(app: FastifyInstance, standIn: StravaStandIn): void {
  type Opts = { notify?: boolean };
  app.post('/athletes', async (request) => standIn.athletes.add(request.body as { id?: number; firstname: string; lastname: string }));
  app.post('/athletes/:id/sign-in', async (request, reply) => {
    standIn.athletes.signIn(Number((request.params as { id: string }).id));
    return reply.status(204).send();
  });
  app.get('/athletes/:id/tokens', async (request) => standIn.tokensOf(Number((request.params as { id: string }).id)));
  app.post('/activities', async (request) => {
    const { athleteId, payload, opts } = request.body as { athleteId: number; payload: Partial<DetailedActivity>; opts?: Opts };
    return standIn.activities.create(athleteId, payload, opts);
  });
  app.patch('/activities/:id', async (request) => {
    const { patch, opts } = request.body as { patch: Partial<DetailedActivity>; opts?: Opts };
    return standIn.activities.update(Number((request.params as { id: string }).id), patch, opts);
  });
  app.delete('/activities/:id', async (request, reply) => {
    const { opts } = (request.body ?? {}) as { opts?: Opts };
    standIn.activities.remove(Number((request.params as { id: string }).id), opts);
    return reply.status(204).send();
  });
  app.post('/athletes/:id/deauthorize', async (request, reply) => {
    await standIn.deauthorize(Number((request.params as { id: string }).id));
    return reply.status(204).send();
  });
  app.post('/deliver', async (request) => {
    const { event } = request.body as { event: StravaEvent };
    const delivery = await standIn.deliver(event);
    return { status: delivery.statuses.at(-1) ?? 0 };
  });
  app.get('/events', async () => standIn.deliveries.map((delivery) => delivery.event));
  app.put('/rate-limit', async (request, reply) => {
    standIn.rateLimit.set(request.body as { shortLimit: number; longLimit: number });
    return reply.status(204).send();
  });
  app.post('/burst429', async (request, reply) => {
    standIn.rateLimit.burst429((request.body as { count: number }).count);
    return reply.status(204).send();
  });
  app.get('/usage', async () => standIn.rateLimit.usage());
  app.get('/requests', async () => standIn.requests);
  app.get('/subscription', async () => ({ subscription: standIn.subscription() }));
  app.get('/fixtures/:sport', async (request, reply) => {
    const fixture = standIn.fixtures[(request.params as { sport: string }).sport];
    return fixture ?? reply.status(404).send({ message: 'no such fixture' });
  });
}
