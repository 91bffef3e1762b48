import type { ReplayStatus } from '@sinilill/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, errorCodeOf } from '../../../../lib/api-client';
import type { CatalogueCode } from '../../../../lib/errors/catalogue';
import { isReplayFinished, REPLAY_POLL_MS } from '../utils/replay';
import { getReplayStatus, startReplay } from './operations';

/** Where the replay is, as the operations tab shows it. */
export type ReplayView =
  | { phase: 'idle' }
  | { phase: 'starting' }
  /** Enqueued; `status` null until the first answer. */
  | { phase: 'following'; jobId: string; status: ReplayStatus | null }
  /** Completed (with the totals) or failed. */
  | { phase: 'finished'; status: ReplayStatus }
  /** Another replay is waiting or running (409 CONCURRENCY_CONFLICT). */
  | { phase: 'conflict' }
  | { phase: 'error'; code: CatalogueCode };

/** sessionStorage key of the followed job: leaving the tab (or reloading) and coming back resumes it. */
export const REPLAY_JOB_KEY = 'sinilill.admin.replayJob';
/** Polls that may fail in a row (a network blip) before the tab gives up following. */
const MAX_POLL_FAILURES = 3;

function stored(): string | null {
  try {
    return globalThis.sessionStorage?.getItem(REPLAY_JOB_KEY) ?? null;
  } catch {
    return null;
  }
}

function store(jobId: string | null): void {
  try {
    if (jobId === null) globalThis.sessionStorage?.removeItem(REPLAY_JOB_KEY);
    else globalThis.sessionStorage?.setItem(REPLAY_JOB_KEY, jobId);
  } catch {
    // Storage refused (privacy mode): the replay is followed while the tab stays open.
  }
}

/**
 * Starts a replay and follows it (docs/decisions/0017): POST /api/admin/replay, then
 * GET /api/admin/replay/{jobId} every REPLAY_POLL_MS until completed or failed. The job id is
 * kept in sessionStorage, so a replay (or its result, kept a day by the server) is shown again
 * when the admin comes back to the tab; an expired job is forgotten quietly.
 */
export function useReplay() {
  // A remembered job shows once its first answer is in (not as "waiting" meanwhile).
  const [view, setView] = useState<ReplayView>({ phase: 'idle' });
  const stop = useRef<() => void>(() => undefined);

  const follow = useCallback((jobId: string, resumed: boolean) => {
    stop.current();
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    stop.current = () => {
      controller.abort();
      clearTimeout(timer);
    };
    const poll = async () => {
      try {
        const status = await getReplayStatus(jobId, controller.signal);
        if (controller.signal.aborted) return;
        failures = 0;
        if (isReplayFinished(status.state)) {
          setView({ phase: 'finished', status });
          return;
        }
        setView({ phase: 'following', jobId, status });
      } catch (error) {
        if (controller.signal.aborted) return;
        const notFound = error instanceof ApiError && error.code === 'NOT_FOUND';
        if (notFound || ++failures >= MAX_POLL_FAILURES) {
          store(null);
          setView(notFound && resumed ? { phase: 'idle' } : { phase: 'error', code: errorCodeOf(error) });
          return;
        }
      }
      timer = setTimeout(() => void poll(), REPLAY_POLL_MS);
    };
    void poll();
  }, []);

  // Resume a job remembered from an earlier visit; stop polling when the tab goes away.
  useEffect(() => {
    const jobId = stored();
    if (jobId !== null) follow(jobId, true);
    return () => stop.current();
  }, [follow]);

  const start = useCallback(async () => {
    stop.current();
    setView({ phase: 'starting' });
    try {
      const { jobId } = await startReplay();
      store(jobId);
      setView({ phase: 'following', jobId, status: null });
      follow(jobId, false);
    } catch (error) {
      const code = errorCodeOf(error);
      setView(code === 'CONCURRENCY_CONFLICT' ? { phase: 'conflict' } : { phase: 'error', code });
    }
  }, [follow]);

  return { view, start };
}
