import type { TeamChange } from '@sinilill/contracts';
import { useEffect, useRef } from 'react';
import { followEventStream } from '../../../lib/event-stream';

/** The data of a `change` event, or null when it is not one for `teamId`. */
export function parseTeamChange(data: string, teamId: number): TeamChange | null {
  try {
    const value = JSON.parse(data) as Partial<TeamChange> | null;
    if (value && value.teamId === teamId && Number.isSafeInteger(value.position)) return { teamId, position: value.position as number };
  } catch {
    // Not JSON: not an event of ours.
  }
  return null;
}

/**
 * Follows GET /api/team/{id}/live while mounted: `onChange(position)` for each `change` of the
 * team (a team mate's entry, a new code …), `onReconnect()` when the stream opened again after a
 * drop (changes may have been missed). The stream carries the session's Authorization; it is
 * reopened with backoff after errors and closed on unmount.
 */
export function useTeamLive(teamId: number, onChange: (position: number) => void, onReconnect: () => void): void {
  const handlers = useRef({ onChange, onReconnect });
  useEffect(() => {
    handlers.current = { onChange, onReconnect };
  });

  useEffect(() => {
    const controller = new AbortController();
    void followEventStream({
      path: `/team/${teamId}/live`,
      signal: controller.signal,
      onEvent: (message) => {
        if (message.event !== 'change') return;
        const change = parseTeamChange(message.data, teamId);
        if (change) handlers.current.onChange(change.position);
      },
      onOpen: ({ reconnected }) => {
        if (reconnected) handlers.current.onReconnect();
      },
    });
    return () => controller.abort();
  }, [teamId]);
}
