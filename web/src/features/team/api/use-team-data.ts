import type { Entry, TeamAnswer, TeamMember } from '@sinilill/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorCodeOf } from '../../../lib/api-client';
import type { CatalogueCode } from '../../../lib/errors/catalogue';
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
 * Team `teamId`'s data for the team page (spec §2: "loads entries, participants and team"). The
 * team must load; members and entries that fail count as empty (spec §7 "list, empty on error")
 * or keep their last value on a refresh. Answers are applied in the order asked, so a slow older
 * read never overwrites a newer one. Everything stops on unmount.
 */
export function useTeamData(teamId: number): TeamDataHandle {
  const [state, setState] = useState<TeamDataState>({ status: 'loading' });
  const load = useRef<((position?: number) => void) | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    let issued = 0;
    let applied = 0;
    let requestedPosition = 0;

    load.current = (position) => {
      if (position !== undefined) {
        if (position <= requestedPosition) return;
        requestedPosition = position;
      }
      const seq = ++issued;
      const options = { signal, minPosition: position };
      void Promise.allSettled([getTeam(teamId, options), getParticipants(teamId, options), getEntries(teamId, options)]).then(
        ([team, members, entries]) => {
          if (signal.aborted || seq < applied) return;
          applied = seq;
          setState((previous) => {
            const before = previous.status === 'ready' ? previous.data : null;
            if (team.status === 'rejected') {
              // A failed refresh keeps what is shown; a failed first load is an error.
              return before ? previous : { status: 'error', code: errorCodeOf(team.reason) };
            }
            return {
              status: 'ready',
              data: {
                team: team.value,
                members: members.status === 'fulfilled' ? members.value : (before?.members ?? []),
                entries: entries.status === 'fulfilled' ? entries.value : (before?.entries ?? []),
              },
            };
          });
        },
      );
    };
    load.current();
    return () => {
      controller.abort();
      load.current = null;
    };
  }, [teamId]);

  const refresh = useCallback((position?: number) => load.current?.(position), []);
  const patchTeam = useCallback((patch: Partial<TeamAnswer>) => {
    setState((previous) => (previous.status === 'ready' ? { status: 'ready', data: { ...previous.data, team: { ...previous.data.team, ...patch } } } : previous));
  }, []);
  return { state, refresh, patchTeam };
}
