import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from './index';
import { ROUTE_FILE_PATTERN, registerRouteFiles, routeFile, routeFileNames } from './route-folder';

interface Deps {
  greeting: string | null;
}

const hello: FastifyPluginAsync<{ word: string }> = async (app, { word }) => {
  app.get('/hello', async () => ({ word }));
};

describe('routes registered by folder', () => {
  const folder = mkdtempSync(join(tmpdir(), 'route-folder-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('finds route files by name: `<name>.ts`, not tests or declarations, in name order', () => {
    for (const name of ['team.ts', 'entries.ts', 'team.test.ts', 'types.d.ts', 'README.md', 'my-data.ts']) writeFileSync(join(folder, name), '');
    expect(routeFileNames(pathToFileURL(`${folder}/`))).toEqual(['entries.ts', 'my-data.ts', 'team.ts']);
    expect(ROUTE_FILE_PATTERN.test('history.test.ts')).toBe(false);
  });

  it('serves a route file with the options it draws from the dependencies, and not at all when they are null', async () => {
    const file = routeFile(hello, (deps: Deps) => (deps.greeting === null ? null : { word: deps.greeting }));
    const served = createApp();
    await registerRouteFiles(served, [{ name: 'hello.ts', module: { default: file } }], { greeting: 'tere' });
    expect((await served.inject({ method: 'GET', url: '/hello' })).json()).toEqual({ word: 'tere' });
    const notServed = createApp();
    await registerRouteFiles(notServed, [{ name: 'hello.ts', module: { default: file } }], { greeting: null });
    expect((await notServed.inject({ method: 'GET', url: '/hello' })).statusCode).toBe(404);
    await Promise.all([served.close(), notServed.close()]);
  });

  it('refuses a file of routes/ whose default export is not a route file, naming it', async () => {
    const app = createApp();
    await expect(registerRouteFiles(app, [{ name: 'helper.ts', module: {} }], {})).rejects.toThrow('routes/helper.ts');
    await app.close();
  });
});
