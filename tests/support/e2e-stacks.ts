/**
 * The process settings of the browser tests' stacks, by name, and how a stack's settings become
 * its environment and its key. Kept free of vitest's worker API so that the main process (the
 * file order, stack-sequencer.ts, and the stack broker, stack-broker.ts) reads the same table the
 * test files pass to `sharedStack(E2E_STACKS.name)` / `ownStack(E2E_STACKS.name)`: a file that
 * names its stack here has it booted ahead, while the files before it run (docs/decisions/0098).
 */
import { createHash } from 'node:crypto';

/** The administrator of every shared stack (ADMIN_EMAIL / ADMIN_PASSWORD, spec §2 "Admin"). */
export const E2E_ADMIN = { email: 'haldur@sinilill.test', password: 'Sinilill admin 2025 parool!' } as const;

/** The token secret of every shared stack, for tests that make tokens of their own. */
export const E2E_JWT_SECRET = 'shared-e2e-stack-secret-0123456789abcdef';

/** The process settings a file may choose; everything else is the same for all shared stacks. */
export interface SharedStackSettings {
  CLOCK_START?: string;
  /** The launcher's demo: '2026' closes 2025 and plans and opens 2026 after the first-start import (default '': none). */
  DEMO_NEXT_EDITION?: string;
  BANK_ACCOUNT_NAME?: string;
  BANK_ACCOUNT_IBAN?: string;
  BANK_TRANSFER_DESCRIPTION?: string;
  /** 'false': no 2025 export at first start (a stack of its own only: ownStack). */
  IMPORT_ON_START?: string;
  /** Another administrator than E2E_ADMIN (a stack of its own only: ownStack). */
  ADMIN_EMAIL?: string;
  ADMIN_PASSWORD?: string;
}

/** The bank-transfer settings of company-fee.e2e (spec §… company teams pay by invoice). */
export const E2E_BANK = {
  BANK_ACCOUNT_NAME: 'MTÜ Sinilill E2E', BANK_ACCOUNT_IBAN: 'EE38 2200 2210 2014 5685', BANK_TRANSFER_DESCRIPTION: 'Sinilill {year} osalustasu {participantId}',
} as const;

/**
 * The stacks of the browser tests by name. A clock's start is Tallinn time; TEST_STACK_DEFAULTS
 * (stack.ts) fills in what a setting leaves out (no launcher demo).
 */
export const E2E_STACKS = {
  /** Entries open, three weeks before the edition's end. */
  april20: { CLOCK_START: '2025-04-20T12:00:00+03:00' },
  /** Entries open, the edition's last day (TEST_STACK_DEFAULTS' clock). */
  april30: { CLOCK_START: '2025-04-30T12:00:00+03:00' },
  /** As april30, with the bank-transfer settings. */
  bankTransfer: { CLOCK_START: '2025-04-30T12:00:00+03:00', ...E2E_BANK },
  /** Inside the late-entry window. */
  may2: { CLOCK_START: '2025-05-02T12:00:00+03:00' },
  /** After the eligibility deadline, before the draw is published. */
  may5: { CLOCK_START: '2025-05-05T12:00:00+03:00' },
  /** After the late-entry deadline and the prize draw (5 May 17:00): the results are final. */
  may10: { CLOCK_START: '2025-05-10T12:00:00+03:00' },
  /** After the edition. */
  june1: { CLOCK_START: '2025-06-01T12:00:00+03:00' },
  /** After 2025's late-entry window, the editions console's clock. */
  june15: { CLOCK_START: '2025-06-15T12:00:00+03:00' },
  /** The launcher's demo (2025 closed, 2026 planned and opened) with the clock in 2026's registration. */
  demoInRegistration: { DEMO_NEXT_EDITION: '2026', CLOCK_START: '2026-03-10T12:00:00+02:00' },
  /** TEST_STACK_DEFAULTS alone: the 2025 import untouched (a stack of its own only: ownStack). */
  pristine: {},
  /** No import at start, the clock inside the late-entry window (a stack of its own only: ownStack). */
  emptyMay2: { CLOCK_START: '2025-05-02T12:00:00+03:00', IMPORT_ON_START: 'false', ADMIN_EMAIL: 'haldur@sinilill.test', ADMIN_PASSWORD: 'Sinilill jookseb aprillis 2025' },
  /** No import at start, entries open (a stack of its own only: ownStack). */
  emptyApril20: { CLOCK_START: '2025-04-20T12:00:00+03:00', IMPORT_ON_START: 'false', ADMIN_EMAIL: 'resilience-admin@example.ee', ADMIN_PASSWORD: 'Resilience admin 2025!' },
} as const satisfies Record<string, SharedStackSettings>;

/** A stack's environment: the shared administrator and token secret, then `settings`. */
export function stackEnv(settings: SharedStackSettings): Record<string, string> {
  return {
    ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password, JWT_SECRET: E2E_JWT_SECRET,
    ...Object.fromEntries(Object.entries(settings).filter((entry): entry is [string, string] => entry[1] !== undefined)),
  };
}

/** The key of a stack's environment: the same settings, in any order, give the same key. */
export function stackKey(env: Record<string, string>): string {
  return createHash('sha256').update(JSON.stringify(Object.entries(env).sort(([a], [b]) => a.localeCompare(b)))).digest('hex').slice(0, 16);
}
