/**
 * One HTTP load run for the benchmarks beside their peers: autocannon in a
 * worker thread of its own (so that the load generator does not share the servers' event loop),
 * `connections` connections for `seconds` s. Requests/s count 2xx answers only; latencies in ms.
 */
import { createRequire } from 'node:module';

/** One request autocannon cycles through (it ships no types). */
export interface AutocannonRequest { method: string; path: string; headers: Record<string, string>; body?: string }
interface AutocannonHistogram { average: number; p50: number; p90: number; p99: number; max: number }
interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  latency: AutocannonHistogram;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (options: {
  url: string; connections: number; duration: number; workers?: number; requests?: AutocannonRequest[];
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** What one run measured. */
export interface LoadFigures { requestsPerSecond: number; p50: number; p99: number; non2xx: number; errors: number; statusCodes: string }

/** Loads `url` (cycling through `requests` when given, else GET it) and answers the figures. */
export async function load(url: string, connections: number, seconds: number, requests?: AutocannonRequest[]): Promise<LoadFigures> {
  const result = await autocannon({ url, connections, duration: seconds, workers: 1, ...(requests ? { requests } : {}) });
  const statusCodes = Object.entries(result.statusCodeStats).map(([code, { count }]) => `${code}: ${count}`).join(', ');
  return {
    requestsPerSecond: result['2xx'] / result.duration, p50: result.latency.p50, p99: result.latency.p99,
    non2xx: result.non2xx, errors: result.errors, statusCodes,
  };
}
