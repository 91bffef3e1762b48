/**
 * Helpers for this package's integration tests (`*.int.test.ts`) only: a fresh, migrated
 * scratch database on the suite's PostgreSQL, and event factories.
 */
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import pg from 'pg';
import { createScratchDatabase } from '@sinilill/local-infra';
import { eventStoreMigrations, runMigrations } from './migrations';
import type { EventData, EventMetadata } from './types';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseServerUrl: string;
    redisUrl: string;
  }
}

/** A new empty database with schema `es` migrated; the caller ends `pool`. */
export async function migratedDatabase(poolSize = 10): Promise<{ url: string; pool: pg.Pool }> {
  const url = await createScratchDatabase(inject('databaseServerUrl'), 'es');
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  await runMigrations(pool, [eventStoreMigrations]);
  return { url, pool };
}

/** Metadata of a user action, with fresh correlation id. */
export function metadata(overrides: Partial<EventMetadata> = {}): EventMetadata {
  return { actor: { userId: 'u1', role: 'USER' }, correlationId: randomUUID(), causationId: null, ...overrides };
}

/** An event with a fresh id (override anything). */
export function event(type = 'Happened', data: unknown = {}, overrides: Partial<EventData> = {}): EventData {
  return { id: randomUUID(), type, schemaVersion: 1, data, metadata: metadata(), ...overrides };
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
