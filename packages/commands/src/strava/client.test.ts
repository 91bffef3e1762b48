import { describe, expect, it } from 'vitest';
import { rateLimitsOf, waitForLimits, StravaClient } from './client';
import { startOfLocalDay } from './sync';

const QUARTER = 15 * 60_000;
const DAY = 24 * 60 * 60_000;

describe("Strava's rate-limit headers", () => {
  it('reads both pairs of 15-minute and daily figures; absent or malformed ones are null', () => {
    const headers = new Headers({ 'x-ratelimit-limit': '200,2000', 'x-ratelimit-usage': '12, 140', 'x-readratelimit-limit': '100,1000', 'x-readratelimit-usage': 'x' });
    expect(rateLimitsOf(headers)).toEqual({ limit: [200, 2000], usage: [12, 140], readLimit: [100, 1000], readUsage: null });
  });

  it('says to go on while requests are left, and to wait for the window that is spent: its quarter hour, or midnight UTC', () => {
    const at = Date.parse('2025-04-15T09:05:00Z');
    const limits = (usage: [number, number], readUsage: [number, number]) => ({ limit: [200, 2000] as [number, number], usage, readLimit: [100, 1000] as [number, number], readUsage });
    expect(waitForLimits(limits([10, 100], [5, 50]), at, QUARTER)).toBe(0);
    // 99 reads of 100 in this quarter hour: wait until 09:15.
    expect(waitForLimits(limits([150, 500], [99, 500]), at, QUARTER)).toBe(10 * 60_000);
    // The day's overall limit is spent: wait until midnight UTC, whatever the quarter hour says.
    expect(waitForLimits(limits([199, 2000], [10, 500]), at, QUARTER)).toBe(DAY - (at % DAY));
    expect(waitForLimits({ limit: null, usage: null, readLimit: null, readUsage: null }, at, QUARTER)).toBe(0);
  });
});

describe('the authorize address', () => {
  it("is Strava's OAuth page with our client, redirect, code flow, approval_prompt=auto, scope and state", () => {
    const client = new StravaClient({ clientId: '4242', clientSecret: 's', apiUrl: 'https://www.strava.com/api/v3', oauthUrl: 'https://www.strava.com/oauth' });
    const url = new URL(client.authorizeUrl('https://sinilill.ee/api/strava/callback', 'st.ate', 'activity:read'));
    expect(url.origin + url.pathname).toBe('https://www.strava.com/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: '4242', redirect_uri: 'https://sinilill.ee/api/strava/callback', response_type: 'code', approval_prompt: 'auto', scope: 'activity:read', state: 'st.ate',
    });
  });
});

describe('startOfLocalDay', () => {
  it("is the instant of a day's 00:00 in the zone, summer time included", () => {
    expect(new Date(startOfLocalDay('2025-04-01', 'Europe/Tallinn')).toISOString()).toBe('2025-03-31T21:00:00.000Z');
    expect(new Date(startOfLocalDay('2025-01-15', 'Europe/Tallinn')).toISOString()).toBe('2025-01-14T22:00:00.000Z');
    // The night summer time begins (30 March 2025, 03:00 → 04:00): midnight is still +02:00.
    expect(new Date(startOfLocalDay('2025-03-30', 'Europe/Tallinn')).toISOString()).toBe('2025-03-29T22:00:00.000Z');
    expect(new Date(startOfLocalDay('2025-03-31', 'Europe/Tallinn')).toISOString()).toBe('2025-03-30T21:00:00.000Z');
  });
});
