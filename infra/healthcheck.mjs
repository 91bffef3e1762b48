#!/usr/bin/env node
/**
 * The containers' health check (infra/compose.yaml): `node infra/healthcheck.mjs <url>`
 * exits 0 when `url` answers a 2xx status within 4 s, and 1 otherwise, with one line on stderr
 * saying why (Docker keeps it in `docker inspect`'s health log); 2 without a URL. Plain JavaScript
 * on Node's own fetch, because the slim base image has neither curl nor wget.
 */
const url = process.argv[2];
if (!url) {
  console.error('usage: node healthcheck.mjs <url>');
  process.exit(2);
}
try {
  const response = await fetch(url, { signal: AbortSignal.timeout(4000) });
  await response.body?.cancel();
  if (!response.ok) {
    console.error(`${url} answered ${response.status}`);
    process.exit(1);
  }
} catch (error) {
  console.error(`${url}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
// Explicitly: fetch's keep-alive connection would hold the process open for seconds.
process.exit(0);
