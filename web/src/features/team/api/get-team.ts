import type { TeamAnswer } from '@sinilill/contracts';
import { useEffect, useState } from 'react';
import { apiGet, errorCodeOf } from '../../../lib/api-client';
import type { CatalogueCode } from '../../../lib/errors/catalogue';

/** GET /api/team/{id} (spec §7): the team's card data and progress. Throws ApiError (NOT_FOUND). */
export function getTeam(id: number, signal?: AbortSignal): Promise<TeamAnswer> {
  return apiGet<TeamAnswer>(`/team/${id}`, { signal });
}

export type TeamState =
  | { status: 'loading' }
  | { status: 'success'; team: TeamAnswer }
  | { status: 'error'; code: CatalogueCode };

/** Loads team `id` once per mount (the page remounts it, by key, when the id changes). */
export function useTeam(id: number): TeamState {
  const [state, setState] = useState<TeamState>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    getTeam(id, controller.signal).then(
      (team) => setState({ status: 'success', team }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', code: errorCodeOf(error) });
      },
    );
    return () => controller.abort();
  }, [id]);
  return state;
}
