/**
 * Strava's HTTP API as the sync uses it (Strava API v3, developers.strava.com/docs/reference and
 * /docs/authentication, /docs/webhooks, /docs/rate-limits): the OAuth token exchange and refresh,
 * deauthorization, one activity, the athlete's activities, and the push subscriptions.
 *
 * Every call has a timeout (fetch with AbortSignal.timeout), base URLs come from configuration
 * (STRAVA_API_URL, STRAVA_OAUTH_URL: a stand-in in tests), and every API answer's rate-limit
 * headers are read (StravaRateLimits): `X-RateLimit-Limit: 200,2000` and
 * `X-RateLimit-Usage: 12,140` (15-minute and daily), and the same pair for reads
 * (`X-ReadRateLimit-*`). A 429 throws StravaRateLimitedError with how long to wait; a 401 throws
 * StravaUnauthorizedError (token revoked); anything else not 2xx throws StravaHttpError.
 */

/** The athlete summary Strava returns with the first token exchange (SummaryAthlete). */
export interface StravaAthleteSummary {
  id: number;
  firstname?: string | null;
  lastname?: string | null;
}

/** Strava's token answer (POST /oauth/token). `expires_at` epoch seconds. */
export interface StravaTokenAnswer {
  token_type: string;
  access_token: string;
  refresh_token: string;
  expires_at: number;
  expires_in?: number;
  athlete?: StravaAthleteSummary;
}

/** The fields of a Strava activity (DetailedActivity / SummaryActivity) the sync reads. */
export interface StravaActivity {
  id: number;
  name?: string | null;
  /** metres */
  distance?: number | null;
  /** The newer type ('TrailRun', 'VirtualRide', …); legacy answers have `type` only. */
  sport_type?: string | null;
  type?: string | null;
  start_date?: string | null;
  start_date_local?: string | null;
  athlete?: { id: number } | null;
  /** Private activities are visible with activity:read_all only. */
  private?: boolean;
}

/** A push subscription (GET /push_subscriptions). */
export interface StravaSubscription {
  id: number;
  callback_url: string;
}

/** Usage against limits, from one answer's headers: [15-minute, daily] each; null where absent. */
export interface StravaRateLimits {
  limit: [number, number] | null;
  usage: [number, number] | null;
  readLimit: [number, number] | null;
  readUsage: [number, number] | null;
}

/** An answer with status 429: wait `retryAfterMs` before the next request. */
export class StravaRateLimitedError extends Error {
  override readonly name = 'StravaRateLimitedError';
  constructor(readonly retryAfterMs: number, readonly limits: StravaRateLimits) {
    super(`Strava rate limit reached; retry in ${retryAfterMs} ms`);
  }
}

/** An answer with status 401: the token is revoked or expired (Strava's fault body). */
export class StravaUnauthorizedError extends Error {
  override readonly name = 'StravaUnauthorizedError';
}

/** Any other answer that is not 2xx; also a timeout or a network error (status 0). */
export class StravaHttpError extends Error {
  override readonly name = 'StravaHttpError';
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export interface StravaClientOptions {
  clientId: string;
  clientSecret: string;
  /** e.g. https://www.strava.com/api/v3, no trailing slash. */
  apiUrl: string;
  /** e.g. https://www.strava.com/oauth, no trailing slash. */
  oauthUrl: string;
  /** Per request, ms (default 10 000). */
  timeoutMs?: number;
  /**
   * Length of Strava's short rate-limit window, ms (default 15 minutes: Strava's windows start at
   * 0, 15, 30 and 45 minutes past the hour; the daily one at midnight UTC). A stand-in may use less.
   */
  shortWindowMs?: number;
  /** Wait after a 429 that neither Retry-After nor the usage headers explain, ms (default 5 000). */
  burstWaitMs?: number;
  /** Epoch ms (tests). */
  now?: () => number;
  /** Told of every API answer's limits (the worker throttles on them). */
  onLimits?: (limits: StravaRateLimits) => void;
}

const DAY_MS = 24 * 60 * 60_000;

function pair(value: string | null): [number, number] | null {
  if (value === null) return null;
  const [a, b] = value.split(',').map((part) => Number(part.trim()));
  return Number.isFinite(a) && Number.isFinite(b) ? [a!, b!] : null;
}

/** The rate-limit headers of an answer. */
export function rateLimitsOf(headers: Headers): StravaRateLimits {
  return {
    limit: pair(headers.get('x-ratelimit-limit')),
    usage: pair(headers.get('x-ratelimit-usage')),
    readLimit: pair(headers.get('x-readratelimit-limit')),
    readUsage: pair(headers.get('x-readratelimit-usage')),
  };
}

/**
 * How long to wait before the next request, ms, given an answer's limits: 0 while more than
 * `headroom` requests are left in both windows of both pairs; else until the exhausted window
 * ends (the short window's end, or midnight UTC for the daily one).
 */
export function waitForLimits(limits: StravaRateLimits, nowMs: number, shortWindowMs: number, headroom = 1): number {
  let wait = 0;
  for (const [limit, usage] of [[limits.limit, limits.usage], [limits.readLimit, limits.readUsage]] as const) {
    if (!limit || !usage) continue;
    if (usage[1] + headroom >= limit[1]) wait = Math.max(wait, DAY_MS - (nowMs % DAY_MS));
    else if (usage[0] + headroom >= limit[0]) wait = Math.max(wait, shortWindowMs - (nowMs % shortWindowMs));
  }
  return wait;
}

/** Strava's API and OAuth endpoints; stateless apart from its options. */
export class StravaClient {
  private readonly timeoutMs: number;
  readonly shortWindowMs: number;
  private readonly burstWaitMs: number;
  private readonly now: () => number;

  constructor(private readonly options: StravaClientOptions) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.shortWindowMs = options.shortWindowMs ?? 15 * 60_000;
    this.burstWaitMs = options.burstWaitMs ?? 5_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * The authorize page's address (Strava: GET /oauth/authorize) for `redirectUri`, with
   * approval_prompt=auto and `scope`.
   */
  authorizeUrl(redirectUri: string, state: string, scope: string): string {
    const url = new URL(`${this.options.oauthUrl}/authorize`);
    url.search = new URLSearchParams({
      client_id: this.options.clientId, redirect_uri: redirectUri, response_type: 'code', approval_prompt: 'auto', scope, state,
    }).toString();
    return url.toString();
  }

  /** Exchanges an authorization code (grant authorization_code): tokens and the athlete. */
  exchangeCode(code: string): Promise<StravaTokenAnswer> {
    return this.oauth<StravaTokenAnswer>('token', { client_id: this.options.clientId, client_secret: this.options.clientSecret, code, grant_type: 'authorization_code' });
  }

  /** A fresh access token (grant refresh_token); the answer's refresh token replaces the old one. */
  refresh(refreshToken: string): Promise<StravaTokenAnswer> {
    return this.oauth<StravaTokenAnswer>('token', { client_id: this.options.clientId, client_secret: this.options.clientSecret, refresh_token: refreshToken, grant_type: 'refresh_token' });
  }

  /** Revokes the athlete's grant (POST /oauth/deauthorize); a 401 (already revoked) counts as done. */
  async deauthorize(accessToken: string): Promise<void> {
    try {
      await this.oauth('deauthorize', { access_token: accessToken });
    } catch (error) {
      if (!(error instanceof StravaUnauthorizedError)) throw error;
    }
  }

  /** GET /activities/{id}. */
  activity(accessToken: string, activityId: number): Promise<StravaActivity> {
    return this.api<StravaActivity>('GET', `/activities/${activityId}`, accessToken);
  }

  /** GET /athlete/activities?after&before&page&per_page (epoch seconds). */
  athleteActivities(accessToken: string, query: { after: number; before: number; page: number; perPage: number }): Promise<StravaActivity[]> {
    const search = new URLSearchParams({ after: String(query.after), before: String(query.before), page: String(query.page), per_page: String(query.perPage) });
    return this.api<StravaActivity[]>('GET', `/athlete/activities?${search.toString()}`, accessToken);
  }

  /** GET /push_subscriptions (authenticated by the app's client id and secret). */
  subscriptions(): Promise<StravaSubscription[]> {
    const search = new URLSearchParams({ client_id: this.options.clientId, client_secret: this.options.clientSecret });
    return this.api<StravaSubscription[]>('GET', `/push_subscriptions?${search.toString()}`, null);
  }

  /** POST /push_subscriptions: Strava first calls `callbackUrl` with the hub.challenge handshake. */
  subscribe(callbackUrl: string, verifyToken: string): Promise<{ id: number }> {
    const body = new URLSearchParams({ client_id: this.options.clientId, client_secret: this.options.clientSecret, callback_url: callbackUrl, verify_token: verifyToken });
    return this.api<{ id: number }>('POST', '/push_subscriptions', null, body);
  }

  /** DELETE /push_subscriptions/{id}. */
  async unsubscribe(id: number): Promise<void> {
    const search = new URLSearchParams({ client_id: this.options.clientId, client_secret: this.options.clientSecret });
    await this.api<unknown>('DELETE', `/push_subscriptions/${id}?${search.toString()}`, null);
  }

  private async oauth<T>(path: string, form: Record<string, string>): Promise<T> {
    return this.request<T>('POST', `${this.options.oauthUrl}/${path}`, null, new URLSearchParams(form), false);
  }

  private async api<T>(method: string, path: string, accessToken: string | null, body?: URLSearchParams): Promise<T> {
    return this.request<T>(method, `${this.options.apiUrl}${path}`, accessToken, body, true);
  }

  private async request<T>(method: string, url: string, accessToken: string | null, body: URLSearchParams | undefined, limited: boolean): Promise<T> {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: { accept: 'application/json', ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}) },
        ...(body ? { body } : {}),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new StravaHttpError(0, `Strava did not answer ${method} ${new URL(url).pathname}: ${(error as Error).message}`);
    }
    const limits = rateLimitsOf(response.headers);
    if (limited) this.options.onLimits?.(limits);
    if (response.status === 429) {
      await response.body?.cancel();
      const retryAfter = Number(response.headers.get('retry-after'));
      const exhausted = waitForLimits(limits, this.now(), this.shortWindowMs, 0);
      const wait = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : exhausted > 0 ? exhausted : this.burstWaitMs;
      throw new StravaRateLimitedError(wait, limits);
    }
    if (response.status === 401) {
      await response.body?.cancel();
      throw new StravaUnauthorizedError(`Strava refused the token for ${method} ${new URL(url).pathname}`);
    }
    if (response.status === 204) return undefined as T;
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      throw new StravaHttpError(response.status, `Strava answered ${response.status} to ${method} ${new URL(url).pathname}: ${text.slice(0, 200)}`);
    }
    return (await response.json()) as T;
  }
}
