/**
 * The EventStore contract suite (contract/event-store-contract.ts) against every adapter:
 * PostgreSQL always (a fresh scratch database), the KurrentDB adapter on the in-memory stand-in
 * of its client always (testing/kurrentdb-stand-in.ts), KurrentDB when KURRENTDB_URL points at a server
 * (CI runs this file against a KurrentDB service container). Without it, the KurrentDB run shows
 * up as skipped, with the reason in its name and in the output.
 */
import { describe, test } from 'vitest';
import { eventStoreContract } from './contract/event-store-contract';
import { migratedDatabase } from './int-test-support';
import { PersonalDataVault } from './personal-data';
import { PostgresEventStore } from './postgres-event-store';
import { kurrentDbStandInStore } from './testing/kurrentdb-stand-in';

eventStoreContract('PostgreSQL', async () => {
  const { pool } = await migratedDatabase();
  const store = new PostgresEventStore({ pool });
  return {
    store,
    vault: new PersonalDataVault({ pool }),
    async close() {
      await store.close();
      await pool.end();
    },
  };
});

eventStoreContract('KurrentDB adapter on the in-memory client stand-in', async () => {
  const { store } = kurrentDbStandInStore();
  // The vault's keys live in PostgreSQL whatever the log's engine.
  const { pool } = await migratedDatabase(3);
  return {
    store,
    vault: new PersonalDataVault({ pool }),
    async close() {
      await store.close();
      await pool.end();
    },
  };
});

const kurrentDbUrl = process.env.KURRENTDB_URL;
if (kurrentDbUrl) {
  eventStoreContract('KurrentDB', async () => {
    // Imported here so that the PostgreSQL run never loads the KurrentDB client.
    const { KurrentDbEventStore } = await import('./kurrentdb-event-store');
    // The vault's keys live in PostgreSQL whatever the log's engine.
    const { pool } = await migratedDatabase(2);
    const store = new KurrentDbEventStore({ connectionString: kurrentDbUrl });
    return {
      store,
      vault: new PersonalDataVault({ pool }),
      async close() {
        await store.close();
        await pool.end();
      },
    };
  });
} else {
  // Skipped on purpose: no KurrentDB server runs on this machine (and none can be installed); the
  // event-store-contract workflow sets KURRENTDB_URL against a service container and runs it.
  const skipped = 'KurrentDB run skipped: KURRENTDB_URL is unset';
  console.log(`EventStore contract: ${skipped}`);
  describe.skip(`EventStore contract: KurrentDB (${skipped})`, () => {
    test(skipped, () => undefined);
  });
}
