import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeJwt } from '../../../lib/test-jwt';

const token = `Bearer ${fakeJwt({ userId: 'u1', fullName: 'Jaan Tamm', is_approved: true, participantId: 1, teamId: 2, role: 'USER', isPaid: true })}`;

/** A fresh module over a localStorage with the session's token and `fetch` answering `answer`. */
async function load(answer: () => Response) {
  vi.resetModules();
  const data = new Map([['token', token]]);
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  });
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => answer());
  vi.stubGlobal('fetch', fetchMock);
  return { ...(await import('./activity-files')), fetchMock };
}
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const codeOf = (promise: Promise<unknown>) => promise.then(() => 'resolved', (error: { code?: string }) => error.code);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('uploadActivityFile', () => {
  it("sends the file's bytes with its name (percent-encoded) and the session's token", async () => {
    const { uploadActivityFile, fetchMock } = await load(() => json(200, { distance: 2 }));
    const file = new File(['<gpx/>'], 'õhtune jooks.gpx');
    expect(await uploadActivityFile(2, file)).toEqual({ distance: 2 });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/team/2/activity-files');
    expect(init?.body).toBe(file);
    expect(init?.headers).toMatchObject({ 'content-type': 'application/octet-stream', 'x-file-name': '%C3%B5htune%20jooks.gpx', authorization: token });
  });

  it("refuses a file over 20 MiB without sending it, and names a front door's 413 ACTIVITY_FILE_TOO_LARGE", async () => {
    const big = await load(() => json(200, {}));
    const file = new File([new Uint8Array(1)], 'big.fit');
    Object.defineProperty(file, 'size', { value: 20 * 1024 * 1024 + 1 });
    expect(await codeOf(big.uploadActivityFile(2, file))).toBe('ACTIVITY_FILE_TOO_LARGE');
    expect(big.fetchMock).not.toHaveBeenCalled();
    const gateway = await load(() => json(413, { message: 'REQUEST_TOO_LARGE' }));
    expect(await codeOf(gateway.uploadActivityFile(2, new File(['x'], 'a.fit')))).toBe('ACTIVITY_FILE_TOO_LARGE');
  });

  it("answers the server's catalogue code, and GENERIC_ERROR when the network fails", async () => {
    const refused = await load(() => json(400, { message: 'ACTIVITY_FILE_UNREADABLE' }));
    expect(await codeOf(refused.uploadActivityFile(2, new File(['x'], 'a.fit')))).toBe('ACTIVITY_FILE_UNREADABLE');
    const offline = await load(() => {
      throw new TypeError('Failed to fetch');
    });
    expect(await codeOf(offline.uploadActivityFile(2, new File(['x'], 'a.fit')))).toBe('GENERIC_ERROR');
  });
});
