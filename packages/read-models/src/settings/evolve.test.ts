import { describe, expect, test } from 'vitest';
import type { RecordedEvent } from '@sinilill/event-store';
import { evolveSettings } from './projection';

const changed = (data: object, position: number): RecordedEvent => ({
  id: `e${position}`, type: 'SettingsChanged', schemaVersion: 1, data, stream: 'settings', revision: position - 1,
  globalPosition: position, recordedAt: new Date(0),
  metadata: { actor: { userId: 'admin', role: 'ADMIN' }, correlationId: 'c', causationId: null },
});

describe('settings: the global switches', () => {
  const start = { registrationEnabled: true, entryInsertionEnabled: true };
  test('given no change, both stay on', () => {
    expect(evolveSettings(start, [])).toEqual(start);
  });
  test('each event changes only the switches it names, last one wins', () => {
    expect(evolveSettings(start, [
      changed({ registrationEnabled: false }, 1),
      changed({ entryInsertionEnabled: false }, 2),
      changed({ registrationEnabled: true }, 3),
    ])).toEqual({ registrationEnabled: true, entryInsertionEnabled: false });
  });
});
