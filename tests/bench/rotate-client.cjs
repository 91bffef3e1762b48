/**
 * An autocannon `setupClient` (in workers mode it must be a file): every connection cycles
 * through the same requests (the JSON array in the file BENCH_ROTATED_REQUESTS names), each
 * starting at its own offset, so that the connections call as different participants at the same
 * moment, as people do, rather than all as the same one in step.
 */
'use strict';

// autocannon's worker require()s this file: CommonJS throughout.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { readFileSync } = require('node:fs');

let created = 0;

module.exports = function rotate(client) {
  const file = process.env.BENCH_ROTATED_REQUESTS;
  const requests = file ? JSON.parse(readFileSync(file, 'utf8')) : [];
  if (requests.length === 0) return;
  const offset = created++ % requests.length;
  client.setRequests([...requests.slice(offset), ...requests.slice(0, offset)]);
};
