/**
 * The readings of Redis that the alerts use, without a Redis: INFO memory's fields and the
 * backup record's shape (the round trip through a real Redis is tests/int/alert-metrics.int.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { backupRecordKey, parseBackupRecord, parseRedisMemory } from './redis-facts';

describe('parseRedisMemory', () => {
  test('reads used_memory, maxmemory and total_system_memory from INFO memory, in bytes', () => {
    const info = '# Memory\r\nused_memory:1048576\r\nused_memory_human:1.00M\r\ntotal_system_memory:8589934592\r\nmaxmemory:536870912\r\nmaxmemory_policy:noeviction\r\n';
    expect(parseRedisMemory(info)).toEqual({ used: 1048576, max: 536870912, system: 8589934592 });
  });

  test('no maxmemory set reads 0, and a field Redis does not send reads 0', () => {
    expect(parseRedisMemory('# Memory\nused_memory:2048\nmaxmemory:0\n')).toEqual({ used: 2048, max: 0, system: 0 });
  });
});

describe('the backup record', () => {
  test('lives under the queues\' prefix', () => {
    expect(backupRecordKey('sinilill')).toBe('sinilill:backup:last');
    expect(backupRecordKey('test7')).toBe('test7:backup:last');
  });

  test('is read back as written; anything else is no record', () => {
    const record = { finishedAt: '2026-04-15T12:00:03.000Z', file: '/var/lib/sinilill/backups/sinilill-20260415T120000Z.dump', bytes: 1_234_567, headPosition: 16_701 };
    expect(parseBackupRecord(JSON.stringify(record))).toEqual(record);
    expect(parseBackupRecord(null)).toBeNull();
    expect(parseBackupRecord('not json')).toBeNull();
    expect(parseBackupRecord(JSON.stringify({ ...record, finishedAt: 'yesterday' }))).toBeNull();
    expect(parseBackupRecord(JSON.stringify({ file: 'x' }))).toBeNull();
  });
});
