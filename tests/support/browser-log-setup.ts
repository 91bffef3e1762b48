/**
 * The e2e project's setup file: under a failed browser test, prints what its pages did
 * (tests/support/browser-log.ts).
 */
import { afterEach, beforeEach } from 'vitest';
import { browserLog, clearBrowserLog } from './browser-log';

beforeEach(() => clearBrowserLog());
afterEach((context) => {
  if (context.task.result?.state !== 'fail' || browserLog().length === 0) return;
  console.error(`What the browser saw during "${context.task.name}":\n${browserLog().join('\n')}`);
});
