import type { Entry, TeamAnswer, TeamMember } from '@sinilill/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { errorCodeOf } from '../../../lib/api-client';
import type { CatalogueCode } from '../../../lib/errors/catalogue';
import { queryKeys } from '../../../lib/query-client';
import { getEntries } from './get-entries';
import { getParticipants } from './get-participants';
import { getTeam } from './get-team';

/** What the team page shows from the query API. */
export interface TeamData {
  team: TeamAnswer;
  members: TeamMember[];
  entries: Entry[];
}

export type TeamDataState =
  | { status: 'loading' }
  | { status: 'error'; code: CatalogueCode }
  | { status: 'ready'; data: TeamData };

export interface TeamDataHandle {
  state: TeamDataState;
  /**
   * Loads team, members and entries again. With a position (a command's answer, a live event)
   * the reads wait until the read models reached it (x-min-position); a position no newer than
   * one already asked for is skipped — that read is under way or done.
   */
  refresh: (position?: number) => void;
  /** Applies a change the server confirmed (the new icon or description) before the refresh lands. */
  patchTeam: (patch: Partial<TeamAnswer>) => void;
}

/**
 * Team `teamId`'s data for the team page (spec §2: "loads entries, participants and team"), one
 * entry of the query cache read as one: the team must load; members and entries that fail count
 * as empty (spec §7 "list, empty on error") or keep their last value on a refresh, and a failed
 * refresh keeps what is shown. A refresh cancels the read still under way, so a slow older read
 * never overwrites a newer one; leaving the page cancels it too. Offline, the service worker
 * answers these reads from the last ones it saw (app/service-worker/offline-routes.ts).
 */
export function useTeamData(teamId: number): TeamDataHandle {
  const queryClient = useQueryClient();
  const key = queryKeys.team(teamId);
  // The newest position a refresh asked the reads to wait for (0: none).
  const requestedPosition = useRef(0);

  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }): Promise<TeamData> => {
      const position = requestedPosition.current;
      const options = { signal, minPosition: position > 0 ? position : undefined };
      const [team, members, entries] = await Promise.allSettled([getTeam(teamId, options), getParticipants(teamId, options), getEntries(teamId, options)]);
      const before = queryClient.getQueryData<TeamData>(key);
      if (team.status === 'rejected') {
        if (before) return before;
        throw team.reason;
      }
      return {
        team: team.value,
        members: members.status === 'fulfilled' ? members.value : (before?.members ?? []),
        entries: entries.status === 'fulfilled' ? entries.value : (before?.entries ?? []),
      };
    },
  });

  const { refetch } = query;
  const refresh = useCallback((position?: number) => {
    if (position !== undefined) {
      if (position <= requestedPosition.current) return;
      requestedPosition.current = position;
    }
    void refetch();
  }, [refetch]);
  const patchTeam = useCallback((patch: Partial<TeamAnswer>) => {
    queryClient.setQueryData<TeamData>(queryKeys.team(teamId), (previous) => (previous ? { ...previous, team: { ...previous.team, ...patch } } : previous));
  }, [queryClient, teamId]);

  const state: TeamDataState = query.status === 'success'
    ? { status: 'ready', data: query.data }
    : query.status === 'error' ? { status: 'error', code: errorCodeOf(query.error) } : { status: 'loading' };
  return { state, refresh, patchTeam };
}
