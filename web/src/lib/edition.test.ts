import { edition2025, edition2026Demo } from '@sinilill/domain/seed';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { editionOfYear, siteMoment, type EditionsAnswer } from './edition';
import { editionView } from './test-editions';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const closed2025 = editionView(edition2025, { status: 'closed', phase: 'closed', registrationOpen: false, today: '2026-01-10' });
const upcoming2026 = editionView(edition2026Demo, { phase: 'upcoming', registrationOpen: false, today: '2026-01-10' });
const answer = (current: EditionsAnswer['current'], next: EditionsAnswer['next'], archive: EditionsAnswer['archive'] = []): EditionsAnswer => ({
  now: '2026-01-10T10:00:00.000Z',
  current,
  next,
  archive,
});

describe('the site moment (home life cycle)', () => {
  it('is between editions when the current edition is closed, with the next one when announced', () => {
    expect(siteMoment(answer(closed2025, upcoming2026, [closed2025]))).toEqual({ kind: 'between', last: closed2025, next: upcoming2026 });
    expect(siteMoment(answer(closed2025, null, [closed2025]))).toEqual({ kind: 'between', last: closed2025, next: null });
  });

  it('is the edition while it takes registrations, runs or counts its results', () => {
    for (const phase of ['registration', 'running', 'lateEntries', 'final'] as const) {
      const current = editionView(edition2026Demo, { phase });
      expect(siteMoment(answer(current, null, [closed2025]))).toEqual({ kind: 'edition', current });
    }
  });

  it('announces the first edition before any has run, and says none when nothing is announced', () => {
    expect(siteMoment(answer(null, upcoming2026))).toEqual({ kind: 'announced', next: upcoming2026 });
    expect(siteMoment(answer(null, null))).toEqual({ kind: 'none' });
  });
});

describe('the edition of a year', () => {
  it('finds current, next and archived editions by year, else the site edition', () => {
    const a = answer(editionView(edition2026Demo), null, [closed2025]);
    expect(editionOfYear(a, 2025)).toBe(edition2025);
    expect(editionOfYear(a, 2026)).toBe(edition2026Demo);
    expect(editionOfYear(a, 1999)).toBe(edition2026Demo);
    expect(editionOfYear(a)).toBe(edition2026Demo);
    expect(editionOfYear(answer(null, upcoming2026))).toBe(edition2026Demo);
    expect(editionOfYear(answer(null, null))).toBeNull();
  });
});

describe('GET /api/editions through the query cache', () => {
  afterEach(() => vi.unstubAllGlobals());

  async function load(fetchMock: (url: string) => Promise<Response>) {
    vi.resetModules();
    vi.stubGlobal('fetch', vi.fn(fetchMock));
    const { QueryObserver } = await import('@tanstack/react-query');
    const { queryClient } = await import('./query-client');
    const edition = await import('./edition');
    const site = await import('./site-edition');
    return { queryClient, QueryObserver, ...edition, ...site };
  }

  it('reads /api/editions once, and the synchronous readers then give the rules of the site edition', async () => {
    const body = answer(editionView(edition2026Demo, { phase: 'registration' }), null, [closed2025]);
    const calls: string[] = [];
    const { queryClient, editionsQuery, prefetchEditions, cachedSiteEdition, siteLimits, passwordMin } = await load((url) => {
      calls.push(url);
      return Promise.resolve(json(200, body));
    });
    expect(cachedSiteEdition()).toBeNull();
    expect(passwordMin()).toBe(6);
    prefetchEditions();
    await queryClient.fetchQuery(editionsQuery);
    expect(calls).toEqual(['/api/editions']);
    expect(cachedSiteEdition()).toEqual(edition2026Demo);
    expect(siteLimits()).toEqual(edition2026Demo.limits);
    queryClient.clear();
  });

  it('fails with the catalogue code of the answer', async () => {
    const { queryClient, editionsQuery, QueryObserver } = await load(() => Promise.resolve(json(500, { message: 'GENERIC_ERROR' })));
    const observer = new QueryObserver(queryClient, editionsQuery);
    const stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().status).toBe('error'));
    expect((observer.getCurrentResult().error as { code?: string }).code).toBe('GENERIC_ERROR');
    stop();
    queryClient.clear();
  });
});
