/**
 * The first step of `npm test`: the system parts the suite needs that no npm package ships —
 * redis-server (unless TEST_REDIS_URL or REDIS_URL names a Redis) and Chromium for the browser
 * tests (unless CHROMIUM_PATH names one), promtool for the tests of the alerting rules (unless
 * PROMTOOL_PATH names one; Debian's `prometheus` package), and nginx for the tests of production's front door
 * (optional: skipped without it) — are installed when missing and the project can
 * (packages/local-infra ensureSystemPart); otherwise the run stops here, before anything else,
 * with one message per missing part.
 */
import { ensureSystemPart, SystemPartMissing, type SystemPart } from '@sinilill/local-infra';

const needed: SystemPart[] = [];
if (!process.env.TEST_REDIS_URL && !process.env.REDIS_URL) needed.push('redis-server');
if (!process.env.CHROMIUM_PATH) needed.push('chromium');
if (!process.env.PROMTOOL_PATH) needed.push('promtool');

const missing: string[] = [];
for (const part of needed) {
  try {
    ensureSystemPart(part, (line) => console.log(`[setup] ${line}`));
  } catch (error) {
    if (!(error instanceof SystemPartMissing)) throw error;
    missing.push(error.message);
  }
}
// nginx is optional: without it the tests of production's nginx configuration are skipped, not failed.
try {
  ensureSystemPart('nginx', (line) => console.log(`[setup] ${line}`));
} catch (error) {
  if (!(error instanceof SystemPartMissing)) throw error;
  console.log(`[setup] ${error.message} Until then the nginx tests are skipped.`);
}
if (missing.length > 0) {
  for (const message of missing) console.error(message);
  process.exit(1);
}
