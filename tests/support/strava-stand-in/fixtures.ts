/**
 * The recorded DetailedActivity payloads in fixtures/ (one JSON file per activity, sources in
 * README.md), keyed by their sport_type. Read once per stand-in; callers get their own copies.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DetailedActivity } from './types';

const folder = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** Every fixture by sport_type (a second file of the same sport_type is kept under `${sport}#2`). */
export function loadFixtures(): Record<string, DetailedActivity> {
  const out: Record<string, DetailedActivity> = {};
  for (const name of readdirSync(folder).filter((n) => n.endsWith('.json')).sort()) {
    const activity = JSON.parse(readFileSync(`${folder}${name}`, 'utf8')) as DetailedActivity;
    let key = String(activity.sport_type ?? activity.type);
    for (let n = 2; key in out; n += 1) key = `${activity.sport_type}#${n}`;
    out[key] = activity;
  }
  return out;
}
