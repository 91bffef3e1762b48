import type { DrawAnswer } from '@sinilill/contracts';
import { apiGet, apiPost } from '../../../lib/api-client';

/** GET /api/draw, public: the prize draw's commitment, seed, eligible list and winners. */
export function getDraw(signal?: AbortSignal): Promise<DrawAnswer> {
  return apiGet<DrawAnswer>('/draw', { signal });
}

/** POST /api/admin/draw/commit (administrators): publishes SHA-256(seed), the draw's instant and the number of winners. */
export function commitDraw(input: { commitment: string; drawAt: string; winners: number }): Promise<{ success: boolean; position: number }> {
  return apiPost('/admin/draw/commit', input);
}

/** POST /api/admin/draw/reveal (administrators, at or after drawAt): reveals the seed and draws. */
export function revealDraw(seed: string): Promise<{ success: boolean; position: number }> {
  return apiPost('/admin/draw/reveal', { seed });
}

/** SHA-256 hex of a string's UTF-8 bytes (Web Crypto), as the server's commitment check. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A new secret seed: 32 random bytes (crypto.getRandomValues) as 64 lower-case hex digits. */
export function newSeed(): string {
  return [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('');
}
