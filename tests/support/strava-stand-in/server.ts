/**
 * A local Strava for tests: the endpoints the application uses, answering as Strava's published
 * API description (swagger.json beside this file, developers.strava.com/swagger/swagger.json) and
 * its authentication and webhook guides (developers.strava.com/docs/authentication,
 * /docs/webhooks, /docs/rate-limits) describe them. README.md beside this file lists every rule
 * and its source; the int test tests/int/strava-stand-in.int.test.ts checks the answers against
 * the swagger's schemas.
 *
 * - OAuth (`${url}/oauth`): GET /authorize (an approve page, or with autoApprove a redirect at once
 *   to `redirect_uri?state&code&scope`), POST /token (authorization_code and refresh_token grants),
 *   POST /deauthorize.
 * - API (`${url}/api/v3`): GET /athlete, GET /athlete/activities, GET /activities/{id},
 *   POST/GET/DELETE /push_subscriptions. Bearer tokens checked (401 Fault), rate-limit headers on
 *   every answer, 429 Fault past a limit.
 * - Webhooks: events POSTed to the subscription's callback_url, retried on anything but 200.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { parse as parseQuery } from 'node:querystring';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { loadFixtures } from './fixtures';
import { StravaRateWindows, type StravaLimits } from './rate-limits';
import {
  ACTIVITY_TYPES,
  type DetailedActivity, type Delivery, type PushSubscription, type StravaAthlete, type StravaEvent,
  type StravaFault, type SummaryActivity,
} from './types';

export interface StravaStandInOptions {
  /** 0 (default) = a free port on 127.0.0.1. */
  port?: number;
  clientId?: string;
  clientSecret?: string;
  /** GET /oauth/authorize redirects at once for the signed-in athlete with the requested scopes. */
  autoApprove?: boolean;
  /** The short rate-limit window (Strava: 15 min). */
  shortWindowMs?: number;
  /** The long rate-limit window (Strava: a day, reset at midnight UTC). */
  longWindowMs?: number;
  /** Access-token lifetime (Strava: 6 h = 21,600 s). */
  tokenTtlSeconds?: number;
  /** Waits before each retry of a webhook delivery; its length = the number of retries (Strava: up to 3 attempts in all, so 2). */
  retryDelaysMs?: number[];
  /** How long a callback may take to answer 200 (Strava: 2 s). */
  callbackTimeoutMs?: number;
  /** The stand-in's clock, ms since the epoch (default Date.now). */
  now?: () => number;
}

export interface StravaStandIn {
  /** e.g. http://127.0.0.1:PORT; the API is at `${url}/api/v3`, OAuth at `${url}/oauth`. */
  url: string;
  apiUrl: string;
  oauthUrl: string;
  clientId: string;
  clientSecret: string;
  athletes: {
    add(a: { id?: number; firstname: string; lastname: string; city?: string | null; country?: string | null }): StravaAthlete;
    get(id: number): StravaAthlete | undefined;
    /** The athlete "logged in to strava.com" in the browser: the one an authorization grants. Default: the last added. */
    signIn(id: number): void;
  };
  activities: {
    /** A new activity of the athlete: the recorded fixture of its sport_type (default Run) with `payload` over it. */
    create(athleteId: number, payload?: Partial<DetailedActivity>, opts?: { notify?: boolean }): DetailedActivity;
    update(id: number, patch: Partial<DetailedActivity>, opts?: { notify?: boolean }): DetailedActivity;
    remove(id: number, opts?: { notify?: boolean }): void;
    get(id: number): DetailedActivity | undefined;
  };
  /** The athlete revokes the app on strava.com: tokens die, the athlete event goes to the callback. */
  deauthorize(athleteId: number): Promise<void>;
  /** Ends every access token of the athlete now (a refresh then gives new ones). */
  expireTokens(athleteId: number): void;
  /** The athlete's live access tokens (for tests that check a disconnect revoked them). */
  tokensOf(athleteId: number): string[];
  rateLimit: {
    set(limits: StravaLimits): void;
    burst429(count: number): void;
    usage(): { short: number; long: number; readShort: number; readLong: number };
  };
  /** Every request, oldest first: path without the query. */
  requests: Array<{ method: string; path: string; query: string; status: number; at: number }>;
  /** Recorded real DetailedActivity payloads by sport_type (README.md lists their sources). */
  fixtures: Record<string, DetailedActivity>;
  subscription(): PushSubscription | null;
  /** Every webhook delivery, oldest first. */
  deliveries: Delivery[];
  /** POSTs one event to the subscription's callback (with retries); also redelivers an old one. */
  deliver(event: StravaEvent): Promise<Delivery>;
  /** Resolves when every delivery under way has ended. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

interface Grant {
  athleteId: number;
  scopes: string[];
  accessToken: string;
  refreshToken: string;
  /** Epoch seconds. */
  expiresAt: number;
  revoked: boolean;
}

class Fault extends Error {
  constructor(readonly status: number, readonly body: StravaFault) {
    super(body.message);
  }
}

const fault = (status: number, message: string, resource: string, field: string, code: string) =>
  new Fault(status, { message, errors: [{ resource, field, code }] });
const authorizationError = (field = 'access_token', code = 'invalid', resource = 'Athlete') =>
  fault(401, 'Authorization Error', resource, field, code);
const badRequest = (resource: string, field: string, code: string) => fault(400, 'Bad Request', resource, field, code);

/** Sport types newer than the `type` enumeration map to their parent (swagger ActivityType's description). */
const PARENT_TYPE: Record<string, string> = {
  MountainBikeRide: 'Ride', GravelRide: 'Ride', EMountainBikeRide: 'EBikeRide', TrailRun: 'Run', VirtualRow: 'Rowing',
};
export function activityTypeOf(sportType: string): string {
  if ((ACTIVITY_TYPES as readonly string[]).includes(sportType)) return sportType;
  return PARENT_TYPE[sportType] ?? 'Workout';
}

/**
 * The recorded fixture a sport without one of its own starts from (the nearest in shape: GPS on
 * foot, GPS on wheels, indoor, pool); its sport_type and type are then the asked ones.
 */
const FIXTURE_FAMILY: Record<string, string> = {
  VirtualRun: 'Run', Walk: 'Run', Hike: 'TrailRun', Snowshoe: 'TrailRun', Wheelchair: 'Run', NordicSki: 'Run',
  BackcountrySki: 'Run', AlpineSki: 'Run', Snowboard: 'Run', RollerSki: 'Run', IceSkate: 'Run',
  MountainBikeRide: 'Ride', GravelRide: 'Ride', EBikeRide: 'Ride', EMountainBikeRide: 'Ride', Handcycle: 'Ride',
  Velomobile: 'Ride', InlineSkate: 'Ride', Skateboard: 'Ride',
  VirtualRow: 'VirtualRide', Elliptical: 'VirtualRide', StairStepper: 'VirtualRide',
  Rowing: 'Swim', Kayaking: 'Swim', Canoeing: 'Swim', StandUpPaddling: 'Swim',
};

/** Fields only DetailedActivity has (swagger: DetailedActivity's own properties). */
const DETAILED_ONLY = ['description', 'photos', 'gear', 'calories', 'segment_efforts', 'embed_token', 'splits_metric', 'splits_standard', 'laps', 'best_efforts',
  'similar_activities', 'available_zones', 'perceived_exertion', 'prefer_perceived_exertion', 'stats_visibility', 'hide_from_home', 'private_note', 'segment_leaderboard_opt_out', 'leaderboard_opt_out'];

export function summaryOf(activity: DetailedActivity): SummaryActivity {
  const summary: Record<string, unknown> = { ...activity, resource_state: 2 };
  for (const field of DETAILED_ONLY) delete summary[field];
  const map = activity.map;
  summary.map = { id: map.id, summary_polyline: map.summary_polyline ?? null, resource_state: 2 };
  return summary as SummaryActivity;
}

/** `(GMT+02:00) Europe/Tallinn` → `Europe/Tallinn` (Strava's timezone field). */
function zoneName(timezone: string): string | null {
  const match = /\)\s*(\S+)$/.exec(timezone);
  return match?.[1] ?? null;
}

/** Seconds east of UTC in `zone` at `instantMs` (Intl's zone data). */
function offsetSeconds(zone: string, instantMs: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(new Date(instantMs));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((asUtc - Math.floor(instantMs / 1000) * 1000) / 1000);
}

const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function formatTimezone(zone: string, offset: number): string {
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 3600)).padStart(2, '0');
  const mm = String(Math.floor((abs % 3600) / 60)).padStart(2, '0');
  return `(GMT${sign}${hh}:${mm}) ${zone}`;
}

const token = () => randomBytes(20).toString('hex');

/** Starts the stand-in on 127.0.0.1. */
export async function startStravaStandIn(options: StravaStandInOptions = {}): Promise<StravaStandIn> {
  const now = options.now ?? Date.now;
  const clientId = options.clientId ?? '123456';
  const clientSecret = options.clientSecret ?? token();
  const tokenTtl = options.tokenTtlSeconds ?? 6 * 3600;
  const retryDelays = options.retryDelaysMs ?? [200, 400];
  const callbackTimeout = options.callbackTimeoutMs ?? 2000;
  const rates = new StravaRateWindows(now, options.shortWindowMs, options.longWindowMs);
  const fixtures = loadFixtures();

  const athletes = new Map<number, StravaAthlete>();
  let signedIn: number | null = null;
  let nextAthleteId = 134_815_001;
  const activities = new Map<number, DetailedActivity>();
  let nextActivityId = 14_200_000_001;
  const grants: Grant[] = [];
  const codes = new Map<string, { athleteId: number; scopes: string[]; redirectUri: string }>();
  let subscription: PushSubscription | null = null;
  let subscriptionCallback: string | null = null;
  let nextSubscriptionId = 270_001;
  const requests: StravaStandIn['requests'] = [];
  const deliveries: Delivery[] = [];
  const underWay = new Set<Promise<unknown>>();

  const seconds = () => Math.floor(now() / 1000);

  // ---- helpers -------------------------------------------------------------------------------

  function liveGrant(accessToken: string): Grant | undefined {
    return grants.find((g) => g.accessToken === accessToken && !g.revoked && g.expiresAt > seconds());
  }

  function bearer(request: FastifyRequest): Grant {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const query = request.query as Record<string, string | undefined>;
    const value = match?.[1] ?? query.access_token;
    if (!value) throw authorizationError();
    const grant = liveGrant(value);
    if (!grant) throw authorizationError();
    return grant;
  }

  const canReadActivities = (grant: Grant) => grant.scopes.includes('activity:read') || grant.scopes.includes('activity:read_all');
  const visibleTo = (activity: DetailedActivity, scopes: string[]) =>
    activity.visibility !== 'only_me' || scopes.includes('activity:read_all');

  /** Form, JSON and query parameters together: Strava takes any of them. */
  function params(request: FastifyRequest): Record<string, string> {
    const out: Record<string, string> = {};
    for (const source of [request.query, request.body]) {
      if (source && typeof source === 'object') {
        for (const [key, value] of Object.entries(source as Record<string, unknown>)) {
          if (value !== undefined && value !== null) out[key] = Array.isArray(value) ? String(value[0]) : String(value);
        }
      }
    }
    return out;
  }

  function checkClient(p: Record<string, string>): void {
    if (p.client_id !== clientId) throw badRequest('Application', 'client_id', 'invalid');
    if (p.client_secret !== clientSecret) throw badRequest('Application', 'client_secret', 'invalid');
  }

  function issue(athleteId: number, scopes: string[]): Grant {
    const grant: Grant = { athleteId, scopes, accessToken: token(), refreshToken: token(), expiresAt: seconds() + tokenTtl, revoked: false };
    grants.push(grant);
    return grant;
  }

  // ---- webhooks ------------------------------------------------------------------------------

  async function attempt(url: string, event: StravaEvent): Promise<number> {
    try {
      const answer = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'faraday v0.9.2' },
        body: JSON.stringify(event),
        signal: AbortSignal.timeout(callbackTimeout),
      });
      await answer.arrayBuffer().catch(() => undefined);
      return answer.status;
    } catch {
      return 0;
    }
  }

  function deliver(event: StravaEvent): Promise<Delivery> {
    const delivery: Delivery = { event, statuses: [], delivered: false };
    deliveries.push(delivery);
    const run = (async () => {
      const url = subscriptionCallback;
      if (!url) return delivery;
      for (let i = 0; ; i += 1) {
        const status = await attempt(url, event);
        delivery.statuses.push(status);
        if (status === 200) {
          delivery.delivered = true;
          return delivery;
        }
        const wait = retryDelays[i];
        if (wait === undefined) return delivery;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    })();
    underWay.add(run);
    void run.finally(() => underWay.delete(run));
    return run;
  }

  /**
   * Strava pushes an athlete's activity events only while the athlete has authorized the app with
   * activity:read (an Only You activity's only with activity:read_all); an update only when the
   * title, the type or the privacy changed, and a privacy change only to apps holding
   * activity:read_all (developers.strava.com/docs/webhooks, "Event Data").
   */
  function notifyActivity(activity: DetailedActivity, aspect: StravaEvent['aspect_type'], updates: Record<string, string>): void {
    if (!subscription) return;
    const ownerId = activity.athlete.id;
    const live = grants.filter((g) => g.athleteId === ownerId && !g.revoked && canReadActivities(g));
    if (live.length === 0) return;
    const scopes = [...new Set(live.flatMap((g) => g.scopes))];
    if (!visibleTo(activity, scopes)) return;
    const sent = { ...updates };
    if (!scopes.includes('activity:read_all')) delete sent.private;
    if (aspect === 'update' && Object.keys(sent).length === 0) return;
    void deliver({
      object_type: 'activity', object_id: activity.id, aspect_type: aspect, updates: sent,
      owner_id: ownerId, subscription_id: subscription.id, event_time: seconds(),
    });
  }

  // ---- the model -----------------------------------------------------------------------------

  function placeInTime(activity: DetailedActivity, payload: Partial<DetailedActivity>): void {
    const zone = zoneName(String(payload.timezone ?? activity.timezone)) ?? 'UTC';
    let startMs: number;
    if (payload.start_date) startMs = Date.parse(payload.start_date);
    else if (payload.start_date_local) {
      const localAsUtc = Date.parse(payload.start_date_local);
      startMs = localAsUtc - offsetSeconds(zone, localAsUtc) * 1000;
      startMs = localAsUtc - offsetSeconds(zone, startMs) * 1000;
    } else startMs = now();
    const offset = typeof payload.utc_offset === 'number' ? payload.utc_offset : offsetSeconds(zone, startMs);
    activity.start_date = isoSeconds(startMs);
    activity.start_date_local = isoSeconds(startMs + offset * 1000);
    activity.utc_offset = offset;
    activity.timezone = payload.timezone ?? formatTimezone(zone, offset);
  }

  function create(athleteId: number, payload: Partial<DetailedActivity> = {}, opts: { notify?: boolean } = {}): DetailedActivity {
    if (!athletes.has(athleteId)) throw new Error(`no athlete ${athleteId} in the stand-in`);
    const sportType = String(payload.sport_type ?? payload.type ?? 'Run');
    const base = structuredClone(fixtures[sportType] ?? fixtures[FIXTURE_FAMILY[sportType] ?? 'Run'] ?? fixtures.Run ?? ({} as DetailedActivity));
    const id = payload.id ?? nextActivityId++;
    const manual = payload.manual ?? base.manual ?? false;
    const isPrivate = payload.private ?? payload.visibility === 'only_me';
    const activity: DetailedActivity = {
      ...base,
      ...payload,
      id,
      resource_state: 3,
      athlete: { id: athleteId, resource_state: 1 },
      sport_type: sportType,
      type: payload.type ?? activityTypeOf(sportType),
      // A recorded activity's privacy is its owner's choice, not the new one's: public unless asked.
      private: isPrivate,
      visibility: payload.visibility ?? (isPrivate ? 'only_me' : 'everyone'),
      trainer: payload.trainer ?? (sportType.startsWith('Virtual') || base.trainer === true),
      manual,
      map: { ...(base.map ?? { summary_polyline: null }), ...(payload.map ?? {}), id: `a${id}` },
    } as DetailedActivity;
    if (manual) {
      // Strava leaves the upload fields out of a manual activity.
      delete activity.upload_id;
      delete activity.upload_id_str;
    } else {
      activity.upload_id = payload.upload_id ?? id + 1_000_000;
      activity.upload_id_str = String(activity.upload_id);
    }
    placeInTime(activity, payload);
    activities.set(id, activity);
    if (opts.notify !== false) notifyActivity(activity, 'create', {});
    return structuredClone(activity);
  }

  function update(id: number, patch: Partial<DetailedActivity>, opts: { notify?: boolean } = {}): DetailedActivity {
    const before = activities.get(id);
    if (!before) throw new Error(`no activity ${id} in the stand-in`);
    const after: DetailedActivity = { ...before, ...patch, id, athlete: before.athlete };
    if (patch.sport_type && !patch.type) after.type = activityTypeOf(String(patch.sport_type));
    if (patch.start_date || patch.start_date_local || patch.timezone) placeInTime(after, patch);
    if (patch.private !== undefined && patch.visibility === undefined) after.visibility = patch.private ? 'only_me' : 'everyone';
    activities.set(id, after);
    // Strava's update events name only these changes: title, type, private (webhooks guide); any
    // other change (distance, times, …) pushes nothing.
    const updates: Record<string, string> = {};
    if (after.name !== before.name) updates.title = after.name;
    if (after.sport_type !== before.sport_type || after.type !== before.type) updates.type = String(after.sport_type);
    if (after.private !== before.private) updates.private = String(after.private);
    // A change to an Only You activity is pushed as long as it was seen before the change.
    if (opts.notify !== false) notifyActivity(after.visibility === 'only_me' && updates.private ? before : after, 'update', updates);
    return structuredClone(after);
  }

  function remove(id: number, opts: { notify?: boolean } = {}): void {
    const activity = activities.get(id);
    if (!activity) throw new Error(`no activity ${id} in the stand-in`);
    activities.delete(id);
    if (opts.notify !== false) notifyActivity(activity, 'delete', {});
  }

  function addAthlete(a: { id?: number; firstname: string; lastname: string; city?: string | null; country?: string | null }): StravaAthlete {
    const id = a.id ?? nextAthleteId++;
    const at = isoSeconds(now());
    const athlete: StravaAthlete = {
      id, username: null, resource_state: 2, firstname: a.firstname, lastname: a.lastname, bio: null,
      city: a.city ?? null, state: null, country: a.country ?? null, sex: null, premium: false, summit: false,
      created_at: at, updated_at: at, badge_type_id: 0, weight: null,
      profile_medium: 'avatar/athlete/medium.png', profile: 'avatar/athlete/large.png', friend: null, follower: null,
    };
    athletes.set(id, athlete);
    signedIn = id;
    return { ...athlete };
  }

  // ---- HTTP ----------------------------------------------------------------------------------

  const app = Fastify({ logger: false });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, parseQuery(String(body)));
  });
  app.addHook('onResponse', async (request, reply) => {
    const [path, query = ''] = request.url.split('?', 2) as [string, string?];
    requests.push({ method: request.method, path, query, status: reply.statusCode, at: now() });
  });
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof Fault) return reply.status(error.status).send(error.body);
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    return reply.status(status).send({ message: status >= 500 ? 'Internal Server Error' : 'Bad Request', errors: [{ resource: 'Request', field: '', code: String((error as Error).message) }] });
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.status(404).send({ message: 'Record Not Found', errors: [{ resource: 'resource', field: 'path', code: 'invalid' }] } satisfies StravaFault));

  /** Counts the call against the windows (push subscriptions are not), sets the headers, refuses with 429. */
  function rateLimited(request: FastifyRequest, reply: FastifyReply): void {
    const verdict = rates.take(request.method === 'GET');
    for (const [name, value] of Object.entries(verdict.headers)) reply.header(name, value);
    if (verdict.refused) throw fault(429, 'Rate Limit Exceeded', 'Application', 'rate limit', 'exceeded');
  }

  // OAuth: developers.strava.com/docs/authentication

  app.get('/oauth/authorize', async (request, reply) => {
    const p = params(request);
    if (p.client_id !== clientId) throw badRequest('Application', 'client_id', 'invalid');
    if (!p.redirect_uri) throw badRequest('Application', 'redirect_uri', 'invalid');
    if (p.response_type !== 'code') throw badRequest('Application', 'response_type', 'invalid');
    const requested = (p.scope ?? 'read').split(',').map((s) => s.trim()).filter(Boolean);
    if (options.autoApprove) {
      if (signedIn === null) addAthlete({ firstname: 'Strava', lastname: 'Athlete' });
      return reply.redirect(approve(signedIn!, requested, p.redirect_uri, p.state), 302);
    }
    return reply.type('text/html; charset=utf-8').send(approvePage(p, requested));
  });

  function approve(athleteId: number, scopes: string[], redirectUri: string, state: string | undefined): string {
    const granted = scopes.includes('read') ? scopes : ['read', ...scopes];
    const code = token();
    codes.set(code, { athleteId, scopes: granted, redirectUri });
    const target = new URL(redirectUri);
    target.searchParams.set('state', state ?? '');
    target.searchParams.set('code', code);
    target.searchParams.set('scope', granted.join(','));
    return target.toString();
  }

  const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  function approvePage(p: Record<string, string>, requested: string[]): string {
    const hidden = ['redirect_uri', 'state'].map((k) => `<input type="hidden" name="${k}" value="${escape(p[k] ?? '')}">`).join('');
    const who = [...athletes.values()].map((a) =>
      `<option value="${a.id}"${a.id === signedIn ? ' selected' : ''}>${escape(`${a.firstname} ${a.lastname}`)}</option>`).join('');
    const scopes = requested.map((s) =>
      `<label><input type="checkbox" name="scope" value="${escape(s)}" checked> ${escape(s)}</label><br>`).join('');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorize | Strava</title></head><body>
<h1>Authorize application ${escape(clientId)} to connect to your Strava account</h1>
<form method="post" action="/oauth/accept">${hidden}
<label>Athlete <select name="athlete_id">${who}</select></label><br>${scopes}
<button type="submit" name="authorize" value="1">Authorize</button>
<button type="submit" name="cancel" value="1">Cancel</button></form></body></html>`;
  }

  app.post('/oauth/accept', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, string | string[]>;
    const one = (k: string) => (Array.isArray(body[k]) ? body[k][0] : body[k]) as string | undefined;
    const redirectUri = one('redirect_uri');
    if (!redirectUri) throw badRequest('Application', 'redirect_uri', 'invalid');
    if (one('cancel')) {
      const target = new URL(redirectUri);
      target.searchParams.set('state', one('state') ?? '');
      target.searchParams.set('error', 'access_denied');
      return reply.redirect(target.toString(), 302);
    }
    const athleteId = Number(one('athlete_id') ?? signedIn);
    if (!athletes.has(athleteId)) throw badRequest('Athlete', 'athlete_id', 'invalid');
    const scopes = ([] as string[]).concat(body.scope ?? []);
    return reply.redirect(approve(athleteId, scopes, redirectUri, one('state')), 302);
  });

  const tokenHandler = async (request: FastifyRequest) => {
    const p = params(request);
    checkClient(p);
    if (p.grant_type === 'authorization_code') {
      const taken = p.code ? codes.get(p.code) : undefined;
      if (!taken) throw badRequest('AuthorizationCode', 'code', 'invalid');
      codes.delete(p.code!);
      const grant = issue(taken.athleteId, taken.scopes);
      return {
        token_type: 'Bearer', expires_at: grant.expiresAt, expires_in: grant.expiresAt - seconds(),
        refresh_token: grant.refreshToken, access_token: grant.accessToken, athlete: { ...athletes.get(taken.athleteId)! },
      };
    }
    if (p.grant_type === 'refresh_token') {
      const grant = grants.find((g) => g.refreshToken === p.refresh_token && !g.revoked);
      if (!grant) throw badRequest('RefreshToken', 'refresh_token', 'invalid');
      // Strava hands back the same access token while more than an hour of it is left, a new
      // pair otherwise; the old refresh token stops working once a new one is returned.
      if (grant.expiresAt - seconds() <= 3600) {
        grant.accessToken = token();
        grant.refreshToken = token();
        grant.expiresAt = seconds() + tokenTtl;
      }
      return { token_type: 'Bearer', access_token: grant.accessToken, expires_at: grant.expiresAt, expires_in: grant.expiresAt - seconds(), refresh_token: grant.refreshToken };
    }
    throw badRequest('Application', 'grant_type', 'invalid');
  };
  // The guide names www.strava.com/oauth/token, the swagger's securityDefinitions /api/v3/oauth/token: both answer.
  app.post('/oauth/token', tokenHandler);
  app.post('/api/v3/oauth/token', tokenHandler);

  const deauthorizeHandler = async (request: FastifyRequest) => {
    const p = params(request);
    const header = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const value = p.access_token ?? header;
    const grant = value ? grants.find((g) => g.accessToken === value && !g.revoked) : undefined;
    if (!grant) throw authorizationError();
    // The app's own revocation; Strava pushes the athlete event only when the athlete revokes
    // access on strava.com (deauthorize() below).
    for (const g of grants) if (g.athleteId === grant.athleteId) g.revoked = true;
    return { access_token: value };
  };
  app.post('/oauth/deauthorize', deauthorizeHandler);
  app.post('/api/v3/oauth/deauthorize', deauthorizeHandler);

  // API: developers.strava.com/swagger/swagger.json

  app.get('/api/v3/athlete', async (request, reply) => {
    rateLimited(request, reply);
    const grant = bearer(request);
    return { ...athletes.get(grant.athleteId)! };
  });

  app.get('/api/v3/athlete/activities', async (request, reply) => {
    rateLimited(request, reply);
    const grant = bearer(request);
    if (!canReadActivities(grant)) throw authorizationError('activity:read_permission', 'missing', 'AccessToken');
    const p = params(request);
    const int = (name: string, fallback: number | null) => {
      if (p[name] === undefined || p[name] === '') return fallback;
      const n = Number(p[name]);
      if (!Number.isInteger(n)) throw badRequest('Activity', name, 'invalid');
      return n;
    };
    const before = int('before', null);
    const after = int('after', null);
    const page = Math.max(1, int('page', 1)!);
    const perPage = Math.min(200, Math.max(1, int('per_page', 30)!));
    const startOf = (a: DetailedActivity) => Date.parse(a.start_date) / 1000;
    const mine = [...activities.values()].filter((a) => a.athlete.id === grant.athleteId && visibleTo(a, grant.scopes)
      && (before === null || startOf(a) < before) && (after === null || startOf(a) > after));
    // Newest first; with `after` alone Strava lists oldest first (so paging forward from a date works).
    const ascending = after !== null && before === null;
    mine.sort((a, b) => (ascending ? startOf(a) - startOf(b) : startOf(b) - startOf(a)) || (ascending ? a.id - b.id : b.id - a.id));
    return mine.slice((page - 1) * perPage, page * perPage).map(summaryOf);
  });

  app.get('/api/v3/activities/:id', async (request, reply) => {
    rateLimited(request, reply);
    const grant = bearer(request);
    if (!canReadActivities(grant)) throw authorizationError('activity:read_permission', 'missing', 'AccessToken');
    const id = Number((request.params as { id: string }).id);
    const activity = activities.get(id);
    if (!activity || activity.athlete.id !== grant.athleteId || !visibleTo(activity, grant.scopes)) {
      throw fault(404, 'Record Not Found', 'Activity', 'id', 'invalid');
    }
    return structuredClone(activity);
  });

  // Webhooks: developers.strava.com/docs/webhooks

  app.post('/api/v3/push_subscriptions', async (request, reply) => {
    const p = params(request);
    checkClient(p);
    if (subscription) throw badRequest('PushSubscription', '', 'already exists');
    if (!p.callback_url) throw badRequest('PushSubscription', 'callback_url', 'invalid');
    if (!p.verify_token) throw badRequest('PushSubscription', 'verify_token', 'invalid');
    const challenge = token().slice(0, 32);
    const check = new URL(p.callback_url);
    check.searchParams.set('hub.verify_token', p.verify_token);
    check.searchParams.set('hub.challenge', challenge);
    check.searchParams.set('hub.mode', 'subscribe');
    let echoed: unknown;
    try {
      const answer = await fetch(check, { signal: AbortSignal.timeout(callbackTimeout) });
      if (answer.status !== 200) throw new Error(String(answer.status));
      echoed = ((await answer.json()) as Record<string, unknown>)['hub.challenge'];
    } catch {
      throw badRequest('PushSubscription', 'callback url', 'GET to callback URL does not return 200');
    }
    if (echoed !== challenge) throw badRequest('PushSubscription', 'callback url', 'not verifiable');
    const at = isoSeconds(now());
    subscription = { id: nextSubscriptionId++, resource_state: 2, application_id: Number(clientId) || 0, callback_url: p.callback_url, created_at: at, updated_at: at };
    subscriptionCallback = p.callback_url;
    return reply.status(201).send({ id: subscription.id });
  });

  app.get('/api/v3/push_subscriptions', async (request) => {
    checkClient(params(request));
    return subscription ? [{ ...subscription }] : [];
  });

  app.delete('/api/v3/push_subscriptions/:id', async (request, reply) => {
    checkClient(params(request));
    const id = Number((request.params as { id: string }).id);
    if (!subscription || subscription.id !== id) throw fault(404, 'Record Not Found', 'PushSubscription', 'id', 'invalid');
    subscription = null;
    subscriptionCallback = null;
    return reply.status(204).send();
  });

  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  return {
    url,
    apiUrl: `${url}/api/v3`,
    oauthUrl: `${url}/oauth`,
    clientId,
    clientSecret,
    athletes: {
      add: addAthlete,
      get: (id) => (athletes.has(id) ? { ...athletes.get(id)! } : undefined),
      signIn(id) {
        if (!athletes.has(id)) throw new Error(`no athlete ${id} in the stand-in`);
        signedIn = id;
      },
    },
    activities: {
      create,
      update,
      remove,
      get: (id) => (activities.has(id) ? structuredClone(activities.get(id)!) : undefined),
    },
    async deauthorize(athleteId) {
      for (const g of grants) if (g.athleteId === athleteId) g.revoked = true;
      if (!subscription) return;
      await deliver({
        object_type: 'athlete', object_id: athleteId, aspect_type: 'update', updates: { authorized: 'false' },
        owner_id: athleteId, subscription_id: subscription.id, event_time: seconds(),
      });
    },
    expireTokens(athleteId) {
      for (const g of grants) if (g.athleteId === athleteId) g.expiresAt = Math.min(g.expiresAt, seconds());
    },
    tokensOf: (athleteId) => grants.filter((g) => g.athleteId === athleteId && !g.revoked && g.expiresAt > seconds()).map((g) => g.accessToken),
    rateLimit: {
      set: (limits) => rates.set(limits),
      burst429: (count) => rates.burst(count),
      usage: () => rates.usage(),
    },
    requests,
    fixtures,
    subscription: () => (subscription ? { ...subscription } : null),
    deliveries,
    deliver,
    async settled() {
      while (underWay.size > 0) await Promise.allSettled([...underWay]);
    },
    async close() {
      await Promise.allSettled([...underWay]);
      await app.close();
    },
  };
}
