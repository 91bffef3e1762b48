import { describe, expect, test } from 'vitest';
import { isOfflineReadable, isPublicOfflineReadable } from './offline-routes';

describe('what the service worker keeps for offline reading', () => {
  test.each(['/api/team/12', '/api/team/12/participants', '/api/team/12/entries'])('%s: kept', (path) => {
    expect(isOfflineReadable(path)).toBe(true);
  });

  test.each([
    '/api/team/12/newcode', '/api/team/12/live', '/api/team/12/entries/extra', '/api/admin/teams', '/api/admin/team/12',
    '/api/payment/info', '/api/user', '/api/stats', '/api/entry', '/team', '/api/team/abc', '/api/settings/x', '/api/editions', '/api/settings',
  ])('%s: never kept', (path) => {
    expect(isOfflineReadable(path)).toBe(false);
  });
});

describe('the public answers', () => {
  test('the editions and the switches are kept apart from the session\'s reads, and only they', () => {
    expect(isPublicOfflineReadable('/api/editions')).toBe(true);
    expect(isPublicOfflineReadable('/api/settings')).toBe(true);
    for (const path of ['/api/settings/x', '/api/editions/2025', '/api/admin/editions', '/api/history/editions/2025', '/api/team/12']) expect(isPublicOfflineReadable(path)).toBe(false);
  });
});
