/**
 * The Strava stand-in (tests/support/strava-stand-in) answers as Strava documents: the OAuth
 * round trip and refresh (developers.strava.com/docs/authentication), athlete activities paged
 * and filtered, activity by id for its owner only, the push-subscription handshake and webhook
 * deliveries with retries (/docs/webhooks), rate-limit headers and 429s (/docs/rate-limits), and
 * every answer valid against the swagger's schemas. Real HTTP on 127.0.0.1; no Postgres or Redis.
 */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  SPORT_TYPES, startStravaStandIn, type StravaEvent, type StravaStandIn, type StravaStandInOptions,
} from '../support/strava-stand-in';
import { answerValidator, definitionValidator, stravaSwagger } from '../support/strava-stand-in/swagger';

const REDIRECT = 'http://127.0.0.1:9/api/strava/callback';
const APRIL_1 = Date.parse('2026-04-01T06:00:00Z');

let clock = APRIL_1;
let strava: StravaStandIn;
const opened: Array<{ close(): Promise<unknown> }> = [];

async function start(options: StravaStandInOptions = {}): Promise<StravaStandIn> {
  strava = await startStravaStandIn({ autoApprove: true, now: () => clock, retryDelaysMs: [10, 10], ...options });
  opened.push(strava);
  return strava;
}

beforeEach(() => {
  clock = APRIL_1;
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.close()));
});

const form = (fields: Record<string, string>) => ({
  method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields),
});

/** The browser's authorize visit: the redirect's query. */
async function authorize(scope = 'activity:read', state = 'st-1'): Promise<URLSearchParams> {
  const query = new URLSearchParams({ client_id: strava.clientId, redirect_uri: REDIRECT, response_type: 'code', approval_prompt: 'auto', scope, state });
  const answer = await fetch(`${strava.oauthUrl}/authorize?${query}`, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  const location = new URL(answer.headers.get('location')!);
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  return location.searchParams;
}

interface TokenAnswer { token_type: string; access_token: string; refresh_token: string; expires_at: number; expires_in: number; athlete?: { id: number; firstname: string } }

async function exchange(code: string): Promise<Response> {
  return fetch(`${strava.oauthUrl}/token`, form({ client_id: strava.clientId, client_secret: strava.clientSecret, code, grant_type: 'authorization_code' }));
}

/** A connected athlete: its id and a token answer. */
async function connect(scope = 'activity:read', firstname = 'Mari'): Promise<{ athleteId: number; token: TokenAnswer }> {
  const athlete = strava.athletes.add({ firstname, lastname: 'Maasikas' });
  const query = await authorize(scope);
  const token = (await (await exchange(query.get('code')!)).json()) as TokenAnswer;
  return { athleteId: athlete.id, token };
}

const api = (path: string, accessToken: string) => fetch(`${strava.apiUrl}${path}`, { headers: { authorization: `Bearer ${accessToken}` } });

/** A callback server like the application's webhook route: echoes the challenge, answers events with `status()`. */
async function callbackServer(opts: { verifyToken?: string; echo?: boolean; status?: () => number } = {}) {
  const events: StravaEvent[] = [];
  const app: FastifyInstance = Fastify();
  app.get('/webhook', async (request, reply) => {
    const q = request.query as Record<string, string>;
    if (q['hub.mode'] !== 'subscribe' || q['hub.verify_token'] !== (opts.verifyToken ?? 'verify-me')) return reply.status(403).send({});
    return opts.echo === false ? { 'hub.challenge': 'something else' } : { 'hub.challenge': q['hub.challenge'] };
  });
  app.post('/webhook', async (request, reply) => {
    events.push(request.body as StravaEvent);
    return reply.status(opts.status?.() ?? 200).send({});
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  opened.push(app);
  return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/webhook`, events };
}

async function subscribe(callbackUrl: string, verifyToken = 'verify-me'): Promise<Response> {
  return fetch(`${strava.apiUrl}/push_subscriptions`, form({ client_id: strava.clientId, client_secret: strava.clientSecret, callback_url: callbackUrl, verify_token: verifyToken }));
}

describe('OAuth (developers.strava.com/docs/authentication)', () => {
  test('authorize redirects with state, code and the granted scopes; the code gives tokens and the athlete once', async () => {
    await start();
    const athlete = strava.athletes.add({ firstname: 'Mari', lastname: 'Maasikas' });
    const query = await authorize('activity:read', 'signed-state');
    expect(query.get('state')).toBe('signed-state');
    expect(query.get('scope')).toBe('read,activity:read');
    const answer = await exchange(query.get('code')!);
    expect(answer.status).toBe(200);
    const token = (await answer.json()) as TokenAnswer;
    expect(token.token_type).toBe('Bearer');
    expect(token.expires_in).toBe(6 * 3600);
    expect(token.expires_at).toBe(APRIL_1 / 1000 + 6 * 3600);
    expect(token.athlete).toMatchObject({ id: athlete.id, firstname: 'Mari' });
    expect(definitionValidator('SummaryAthlete')(token.athlete)).toBe(true);

    const again = await exchange(query.get('code')!);
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ message: 'Bad Request', errors: [{ resource: 'AuthorizationCode', field: 'code', code: 'invalid' }] });
  });

  test('a wrong client secret or client id is refused', async () => {
    await start();
    strava.athletes.add({ firstname: 'Mari', lastname: 'Maasikas' });
    const query = await authorize();
    const wrong = await fetch(`${strava.oauthUrl}/token`, form({ client_id: strava.clientId, client_secret: 'nope', code: query.get('code')!, grant_type: 'authorization_code' }));
    expect(wrong.status).toBe(400);
    const badClient = await fetch(`${strava.oauthUrl}/authorize?client_id=999&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code`, { redirect: 'manual' });
    expect(badClient.status).toBe(400);
    expect(definitionValidator('Fault')(await badClient.json())).toBe(true);
  });

  test('without autoApprove the approve page asks; Cancel answers access_denied, an unticked scope is not granted', async () => {
    await start({ autoApprove: false });
    const athlete = strava.athletes.add({ firstname: 'Jaan', lastname: 'Tamm' });
    const page = await fetch(`${strava.oauthUrl}/authorize?client_id=${strava.clientId}&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=activity:read&state=s2`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Authorize');
    expect(html).toContain('value="activity:read"');

    const cancel = await fetch(`${strava.url}/oauth/accept`, { ...form({ redirect_uri: REDIRECT, state: 's2', athlete_id: String(athlete.id), cancel: '1' }), redirect: 'manual' });
    const denied = new URL(cancel.headers.get('location')!).searchParams;
    expect(denied.get('error')).toBe('access_denied');
    expect(denied.get('state')).toBe('s2');
    expect(denied.get('code')).toBeNull();

    // Authorize with activity:read unticked: only `read` is granted, and activities are refused.
    const accept = await fetch(`${strava.url}/oauth/accept`, { ...form({ redirect_uri: REDIRECT, state: 's2', athlete_id: String(athlete.id), authorize: '1' }), redirect: 'manual' });
    const granted = new URL(accept.headers.get('location')!).searchParams;
    expect(granted.get('scope')).toBe('read');
    const token = (await (await exchange(granted.get('code')!)).json()) as TokenAnswer;
    const list = await api('/athlete/activities', token.access_token);
    expect(list.status).toBe(401);
    expect(await list.json()).toEqual({ message: 'Authorization Error', errors: [{ resource: 'AccessToken', field: 'activity:read_permission', code: 'missing' }] });
  });

  test('refresh: the same token while more than an hour is left, a new pair after; the old ones then fail', async () => {
    await start();
    const { token } = await connect();
    const refresh = (refreshToken: string) =>
      fetch(`${strava.oauthUrl}/token`, form({ client_id: strava.clientId, client_secret: strava.clientSecret, grant_type: 'refresh_token', refresh_token: refreshToken }));

    clock += 4 * 3600_000; // 2 h left
    const early = (await (await refresh(token.refresh_token)).json()) as TokenAnswer;
    expect(early.access_token).toBe(token.access_token);
    expect(early.refresh_token).toBe(token.refresh_token);
    expect(early.athlete).toBeUndefined();

    clock += 2 * 3600_000 + 1000; // expired
    expect((await api('/athlete', token.access_token)).status).toBe(401);
    const renewed = (await (await refresh(token.refresh_token)).json()) as TokenAnswer;
    expect(renewed.access_token).not.toBe(token.access_token);
    expect(renewed.refresh_token).not.toBe(token.refresh_token);
    expect(renewed.expires_at).toBe(Math.floor(clock / 1000) + 6 * 3600);
    expect((await api('/athlete', renewed.access_token)).status).toBe(200);
    expect((await refresh(token.refresh_token)).status).toBe(400);
  });

  test('expireTokens forces a refresh; deauthorize (the app) revokes every token of the athlete', async () => {
    await start();
    const { athleteId, token } = await connect();
    strava.expireTokens(athleteId);
    expect((await api('/athlete', token.access_token)).status).toBe(401);
    const renewed = (await (await fetch(`${strava.oauthUrl}/token`, form({ client_id: strava.clientId, client_secret: strava.clientSecret, grant_type: 'refresh_token', refresh_token: token.refresh_token }))).json()) as TokenAnswer;
    expect((await api('/athlete', renewed.access_token)).status).toBe(200);

    const revoke = await fetch(`${strava.oauthUrl}/deauthorize`, form({ access_token: renewed.access_token }));
    expect(revoke.status).toBe(200);
    expect(await revoke.json()).toEqual({ access_token: renewed.access_token });
    expect(strava.tokensOf(athleteId)).toEqual([]);
    const after = await api('/athlete', renewed.access_token);
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ message: 'Authorization Error', errors: [{ resource: 'Athlete', field: 'access_token', code: 'invalid' }] });
  });
});

describe('activities (swagger: getLoggedInAthleteActivities, getActivityById)', () => {
  test('listed newest first in pages of per_page, filtered by before/after; with after alone oldest first', async () => {
    await start();
    const { athleteId, token } = await connect();
    const days = ['2026-04-01', '2026-04-02', '2026-04-03', '2026-04-04', '2026-04-05'];
    const made = days.map((day) => strava.activities.create(athleteId, { sport_type: 'Run', start_date: `${day}T05:00:00Z`, timezone: '(GMT+03:00) Europe/Tallinn' }));
    const ids = async (query: string) => ((await (await api(`/athlete/activities?${query}`, token.access_token)).json()) as { id: number }[]).map((a) => a.id);

    expect(await ids('per_page=2&page=1')).toEqual([made[4]!.id, made[3]!.id]);
    expect(await ids('per_page=2&page=2')).toEqual([made[2]!.id, made[1]!.id]);
    expect(await ids('per_page=2&page=3')).toEqual([made[0]!.id]);
    expect(await ids('per_page=2&page=4')).toEqual([]);
    const at = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;
    expect(await ids(`before=${at('2026-04-03')}`)).toEqual([made[1]!.id, made[0]!.id]);
    expect(await ids(`after=${at('2026-04-03')}&before=${at('2026-04-05')}`)).toEqual([made[3]!.id, made[2]!.id]);
    expect(await ids(`after=${at('2026-04-03')}`)).toEqual([made[2]!.id, made[3]!.id, made[4]!.id]);

    const list = (await (await api('/athlete/activities', token.access_token)).json()) as Record<string, unknown>[];
    expect(list[0]).toMatchObject({ resource_state: 2, athlete: { id: athleteId, resource_state: 1 }, start_date: '2026-04-05T05:00:00Z', start_date_local: '2026-04-05T08:00:00Z', utc_offset: 10800 });
    expect(list[0]).not.toHaveProperty('laps');
  });

  test("an activity by id is its owner's only: another athlete's, a deleted one and an unknown id are 404 Record Not Found", async () => {
    await start();
    const mari = await connect('activity:read', 'Mari');
    const jaan = await connect('activity:read', 'Jaan');
    const run = strava.activities.create(mari.athleteId, { sport_type: 'Run', distance: 5123.4 });
    const mine = await api(`/activities/${run.id}`, mari.token.access_token);
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({ id: run.id, resource_state: 3, distance: 5123.4, sport_type: 'Run', type: 'Run' });
    const notFound = { message: 'Record Not Found', errors: [{ resource: 'Activity', field: 'id', code: 'invalid' }] };
    const theirs = await api(`/activities/${run.id}`, jaan.token.access_token);
    expect(theirs.status).toBe(404);
    expect(await theirs.json()).toEqual(notFound);
    expect(await (await api('/athlete/activities', jaan.token.access_token)).json()).toEqual([]);
    strava.activities.remove(run.id);
    expect((await api(`/activities/${run.id}`, mari.token.access_token)).status).toBe(404);
    expect((await api('/activities/1', mari.token.access_token)).status).toBe(404);
  });

  test('an Only You activity is seen with activity:read_all, not with activity:read', async () => {
    await start();
    const reader = await connect('activity:read', 'Mari');
    const hidden = strava.activities.create(reader.athleteId, { sport_type: 'Walk', private: true });
    expect(hidden.visibility).toBe('only_me');
    expect((await api(`/activities/${hidden.id}`, reader.token.access_token)).status).toBe(404);
    strava.athletes.signIn(reader.athleteId);
    const all = (await (await exchange((await authorize('activity:read_all')).get('code')!)).json()) as TokenAnswer;
    expect((await api(`/activities/${hidden.id}`, all.access_token)).status).toBe(200);
  });

  test("start_date and start_date_local follow the activity's zone, as the recorded run's own times do", async () => {
    await start();
    const { athleteId } = await connect();
    const recorded = strava.fixtures.Run!;
    const fromUtc = strava.activities.create(athleteId, { start_date: recorded.start_date, timezone: recorded.timezone });
    expect(fromUtc).toMatchObject({ start_date_local: recorded.start_date_local, utc_offset: recorded.utc_offset, timezone: recorded.timezone });
    // Summer time begins in Tallinn at 03:00 local on 29 March 2026: 02:30 is still UTC+2, 08:00 is UTC+3.
    const beforeSwitch = strava.activities.create(athleteId, { start_date_local: '2026-03-29T02:30:00Z', timezone: '(GMT+02:00) Europe/Tallinn' });
    expect(beforeSwitch).toMatchObject({ start_date: '2026-03-29T00:30:00Z', start_date_local: '2026-03-29T02:30:00Z', utc_offset: 7200 });
    const afterSwitch = strava.activities.create(athleteId, { start_date_local: '2026-03-29T08:00:00Z', timezone: '(GMT+02:00) Europe/Tallinn' });
    expect(afterSwitch).toMatchObject({ start_date: '2026-03-29T05:00:00Z', start_date_local: '2026-03-29T08:00:00Z', utc_offset: 10800 });
    expect(strava.activities.create(athleteId, {})).toMatchObject({ start_date: '2026-04-01T06:00:00Z', sport_type: 'Run' });
  });

  test('a sport takes its own recording, or the nearest one with its own sport_type and type: a Hike the trail run\'s, a MountainBikeRide the ride\'s', async () => {
    await start();
    const { athleteId } = await connect();
    expect(strava.activities.create(athleteId, { sport_type: 'TrailRun' })).toMatchObject({ sport_type: 'TrailRun', type: 'Run', external_id: '648602716788e41723ef8684.fit' });
    expect(strava.activities.create(athleteId, { sport_type: 'Hike' })).toMatchObject({ sport_type: 'Hike', type: 'Hike', total_elevation_gain: 596 });
    expect(strava.activities.create(athleteId, { sport_type: 'Walk' })).toMatchObject({ sport_type: 'Walk', type: 'Walk', device_name: 'Strava iPhone App' });
    expect(strava.activities.create(athleteId, { sport_type: 'MountainBikeRide' })).toMatchObject({ sport_type: 'MountainBikeRide', type: 'Ride' });
    expect(strava.activities.create(athleteId, { sport_type: 'Pickleball' })).toMatchObject({ sport_type: 'Pickleball', type: 'Workout' });
    expect(strava.activities.create(athleteId, { sport_type: 'VirtualRide' })).toMatchObject({ type: 'VirtualRide', trainer: true, device_name: 'Zwift' });
  });
});

describe('push subscriptions and webhook events (developers.strava.com/docs/webhooks)', () => {
  test('creating a subscription does the GET handshake first; it is listed, refused twice, deleted', async () => {
    await start();
    const hook = await callbackServer();
    const created = await subscribe(hook.url);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const handshake = strava.requests.find((r) => r.method === 'POST' && r.path === '/api/v3/push_subscriptions');
    expect(handshake?.status).toBe(201);
    const listed = await fetch(`${strava.apiUrl}/push_subscriptions?client_id=${strava.clientId}&client_secret=${strava.clientSecret}`);
    expect(await listed.json()).toEqual([expect.objectContaining({ id, callback_url: hook.url, resource_state: 2 })]);
    const twice = await subscribe(hook.url);
    expect(twice.status).toBe(400);
    expect(await twice.json()).toEqual({ message: 'Bad Request', errors: [{ resource: 'PushSubscription', field: '', code: 'already exists' }] });
    const deleted = await fetch(`${strava.apiUrl}/push_subscriptions/${id}?client_id=${strava.clientId}&client_secret=${strava.clientSecret}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(strava.subscription()).toBeNull();
  });

  test('a callback that does not echo hub.challenge, refuses the verify token or does not answer gets no subscription', async () => {
    await start();
    const noEcho = await callbackServer({ echo: false });
    const refused = await subscribe(noEcho.url);
    expect(refused.status).toBe(400);
    expect(definitionValidator('Fault')(await refused.json())).toBe(true);
    const otherToken = await callbackServer({ verifyToken: 'other' });
    const wrongToken = await subscribe(otherToken.url);
    expect(wrongToken.status).toBe(400);
    expect(await wrongToken.json()).toEqual({ message: 'Bad Request', errors: [{ resource: 'PushSubscription', field: 'callback url', code: 'GET to callback URL does not return 200' }] });
    expect((await subscribe('http://127.0.0.1:9/webhook')).status).toBe(400);
    expect(strava.subscription()).toBeNull();
  });

  test("create, a title or type update and delete are POSTed in Strava's event shape; other changes push nothing; a deauthorization is POSTed and its tokens die", async () => {
    await start();
    const hook = await callbackServer();
    await subscribe(hook.url);
    const { athleteId, token } = await connect('activity:read');
    const stranger = strava.athletes.add({ firstname: 'Not', lastname: 'Connected' });
    strava.activities.create(stranger.id, { sport_type: 'Run' });
    const run = strava.activities.create(athleteId, { sport_type: 'Run', name: 'Morning Run' });
    strava.activities.update(run.id, { name: 'Tartu maraton', distance: 42195 });
    strava.activities.update(run.id, { distance: 42000, moving_time: 12000 }); // no event: not a title, type or privacy change
    strava.activities.update(run.id, { sport_type: 'TrailRun' });
    strava.activities.update(run.id, { private: true }); // privacy events need activity:read_all
    strava.activities.update(run.id, { name: 'Only I see this' }); // hidden from activity:read
    strava.activities.update(run.id, { private: false });
    strava.activities.remove(run.id);
    await strava.settled();
    const subscriptionId = strava.subscription()!.id;
    const base = { object_type: 'activity', object_id: run.id, owner_id: athleteId, subscription_id: subscriptionId, event_time: APRIL_1 / 1000 };
    expect(hook.events).toEqual([
      { ...base, aspect_type: 'create', updates: {} },
      { ...base, aspect_type: 'update', updates: { title: 'Tartu maraton' } },
      { ...base, aspect_type: 'update', updates: { type: 'TrailRun' } },
      { ...base, aspect_type: 'delete', updates: {} },
    ]);

    await strava.deauthorize(athleteId);
    expect(hook.events.at(-1)).toEqual({ object_type: 'athlete', object_id: athleteId, aspect_type: 'update', updates: { authorized: 'false' }, owner_id: athleteId, subscription_id: subscriptionId, event_time: APRIL_1 / 1000 });
    expect((await api('/athlete', token.access_token)).status).toBe(401);
    strava.activities.create(athleteId, { sport_type: 'Run' });
    await strava.settled();
    expect(hook.events).toHaveLength(5);
  });

  test('with activity:read_all the privacy changes are POSTed, and the changes of an Only You activity', async () => {
    await start();
    const hook = await callbackServer();
    await subscribe(hook.url);
    const { athleteId } = await connect('activity:read_all');
    const walk = strava.activities.create(athleteId, { sport_type: 'Walk' });
    strava.activities.update(walk.id, { private: true });
    strava.activities.update(walk.id, { name: 'Only I see this' });
    strava.activities.update(walk.id, { private: false });
    await strava.settled();
    expect(hook.events.map((e) => [e.aspect_type, e.updates])).toEqual([
      ['create', {}], ['update', { private: 'true' }], ['update', { title: 'Only I see this' }], ['update', { private: 'false' }],
    ]);
  });

  test('an event the callback does not take with 200 is tried again, 3 attempts in all, and deliver() sends one again', async () => {
    await start();
    const answers = [500, 503, 200];
    const hook = await callbackServer({ status: () => answers.shift() ?? 500 });
    await subscribe(hook.url);
    const { athleteId } = await connect();
    const run = strava.activities.create(athleteId, { sport_type: 'Run' });
    await strava.settled();
    expect(strava.deliveries).toHaveLength(1);
    expect(strava.deliveries[0]).toMatchObject({ statuses: [500, 503, 200], delivered: true });
    expect(hook.events).toHaveLength(3);

    const never = await strava.deliver(strava.deliveries[0]!.event);
    expect(never.statuses).toEqual([500, 500, 500]);
    expect(never.delivered).toBe(false);
    expect(hook.events).toHaveLength(6);
    expect(new Set(hook.events.map((e) => e.object_id))).toEqual(new Set([run.id]));
  });
});

describe('rate limits (developers.strava.com/docs/rate-limits)', () => {
  test('every API answer carries the limits and the usage; past the short limit 429 with the Fault; the window resets', async () => {
    await start({ shortWindowMs: 60_000 });
    const { token } = await connect();
    strava.rateLimit.set({ shortLimit: 3, longLimit: 100, readShortLimit: 3, readLongLimit: 100 });
    for (const n of [1, 2, 3]) {
      const answer = await api('/athlete', token.access_token);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-ratelimit-limit')).toBe('3,100');
      expect(answer.headers.get('x-ratelimit-usage')).toBe(`${n},${n}`);
      expect(answer.headers.get('x-readratelimit-limit')).toBe('3,100');
      expect(answer.headers.get('x-readratelimit-usage')).toBe(`${n},${n}`);
    }
    const over = await api('/athlete', token.access_token);
    expect(over.status).toBe(429);
    expect(over.headers.get('x-ratelimit-usage')).toBe('4,4');
    const body = await over.json();
    expect(body).toEqual({ message: 'Rate Limit Exceeded', errors: [{ resource: 'Application', field: 'rate limit', code: 'exceeded' }] });
    expect(answerValidator('/athlete', 'get', 'default')(body)).toBe(true);
    expect(strava.rateLimit.usage()).toMatchObject({ short: 4, long: 4 });

    clock += 60_000;
    const next = await api('/athlete', token.access_token);
    expect(next.status).toBe(200);
    expect(next.headers.get('x-ratelimit-usage')).toBe('1,5');
  });

  test('the daily limit refuses too, and the read limit counts only reads', async () => {
    await start({ shortWindowMs: 60_000, longWindowMs: 600_000 });
    const { token } = await connect();
    strava.rateLimit.set({ shortLimit: 100, longLimit: 2, readShortLimit: 100, readLongLimit: 100 });
    expect((await api('/athlete', token.access_token)).status).toBe(200);
    expect((await api('/athlete', token.access_token)).status).toBe(200);
    clock += 60_000;
    expect((await api('/athlete', token.access_token)).status).toBe(429);
    clock += 600_000;
    expect((await api('/athlete', token.access_token)).status).toBe(200);
  });

  test('burst429(n) refuses the next n calls whatever the usage; push subscriptions and OAuth are not counted', async () => {
    await start();
    const { token } = await connect();
    const hook = await callbackServer();
    strava.rateLimit.burst429(2);
    expect((await subscribe(hook.url)).status).toBe(201);
    expect((await api('/athlete/activities', token.access_token)).status).toBe(429);
    expect((await api('/athlete/activities', token.access_token)).status).toBe(429);
    expect((await api('/athlete/activities', token.access_token)).status).toBe(200);
    expect(strava.rateLimit.usage()).toMatchObject({ short: 3, long: 3 });
    expect(strava.requests.filter((r) => r.status === 429).map((r) => r.path)).toEqual(['/api/v3/athlete/activities', '/api/v3/athlete/activities']);
  });
});

describe("answers valid against Strava's swagger", () => {
  test('the stand-in knows exactly the swagger\'s sport types', () => {
    expect([...SPORT_TYPES].sort()).toEqual([...(stravaSwagger.definitions.SportType!.enum as string[])].sort());
  });

  test('every recorded fixture is a valid DetailedActivity (sources in the README)', async () => {
    await start();
    const validate = definitionValidator('DetailedActivity');
    expect(Object.keys(strava.fixtures).sort()).toEqual(['Ride', 'Run', 'Swim', 'TrailRun', 'VirtualRide']);
    for (const [sport, fixture] of Object.entries(strava.fixtures)) {
      expect(validate(fixture), `${sport}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  test('GET /athlete, /athlete/activities and /activities/{id} of every sport answer by their schemas', async () => {
    await start();
    const { athleteId, token } = await connect();
    const athlete = await (await api('/athlete', token.access_token)).json();
    const validAthlete = answerValidator('/athlete');
    expect(validAthlete(athlete), JSON.stringify(validAthlete.errors)).toBe(true);
    const sports = ['Run', 'Ride', 'Swim', 'VirtualRide', 'TrailRun', 'Walk', 'Hike', 'NordicSki', 'AlpineSki', 'EBikeRide', 'InlineSkate', 'Wheelchair', 'Rowing', 'Yoga'];
    for (const sport of sports) strava.activities.create(athleteId, { sport_type: sport });
    const list = await (await api('/athlete/activities?per_page=50', token.access_token)).json();
    const validList = answerValidator('/athlete/activities');
    expect(validList(list), JSON.stringify(validList.errors)).toBe(true);
    expect((list as unknown[]).length).toBe(sports.length);
    const validActivity = answerValidator('/activities/{id}');
    for (const { id } of list as { id: number }[]) {
      const activity = await (await api(`/activities/${id}`, token.access_token)).json();
      expect(validActivity(activity), JSON.stringify(validActivity.errors)).toBe(true);
    }
    const fault = answerValidator('/activities/{id}', 'get', 'default');
    expect(fault(await (await api('/activities/1', token.access_token)).json())).toBe(true);
    expect(fault(await (await api('/activities/1', 'wrong')).json())).toBe(true);
  });
});
