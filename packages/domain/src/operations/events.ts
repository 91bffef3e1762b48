/**
 * The events of stream `operations`: operators' acts on the whole system (replays; decisions
 * about parked events, operations/decider.ts). The union of all events and their registry are in
 * ../events.ts.
 */

/** Figures of the whole event at one moment (the stats totals). */
export interface ReplayTotals {
  teams: number;
  participants: number;
  /** km (sum of the teams' rounded distances). */
  distance: number;
  blueFlowers: number;
}
/**
 * Every read model was rebuilt from the log (an operator's replay, e.g. after the route's
 * mission lengths changed). Recorded in stream `operations` with the totals before and after.
 */
export interface ReadModelsReplayed {
  type: 'ReadModelsReplayed';
  data: {
    /** The BullMQ job id, or null for the CLI. */
    jobId: string | null;
    /** Events read by the rebuild. */
    events: number;
    /** The global position the rebuilt read models reflect. */
    position: number;
    before: ReplayTotals;
    after: ReplayTotals;
    startedAt: string;
    finishedAt: string;
    /**
     * Each read-model table, rebuilt vs live, compared just before the swap.
     * Absent in older replays (an optional addition: no new schema version).
     */
    checksums?: ReplayTableChecksum[];
  };
}
/** One read-model table compared by a replay before its swap (read-models checksums.ts). */
export interface ReplayTableChecksum {
  table: string;
  /** Rows of the rebuilt table. */
  rows: number;
  /** 16 hex digits over the rebuilt rows. */
  rebuilt: string;
  /** Rows of the live table, null when the live schema had no such table. */
  liveRows: number | null;
  /** 16 hex digits over the live rows, null when the live schema had no such table. */
  live: string | null;
  match: boolean;
}
/**
 * An administrator decided that a projection passes over an event it had parked: the
 * event could not be applied (a data error, e.g. text PostgreSQL cannot store) and waits in the
 * projection's parked_events; this decision marks it resolved as skipped, so the read model stays
 * without it. Recorded in stream `operations`, so a replay that parks the same event again finds
 * the decision later in the log and skips it the same way.
 */
export interface ProjectionEventSkipped {
  type: 'ProjectionEventSkipped';
  data: {
    /** The projection (checkpoint name, e.g. `team-directory`), or null for every projection that parked it. */
    projection: string | null;
    /** Global position of the parked event. */
    position: number;
    /** The parked event's id and type (for the audit; the position names it). */
    eventId: string;
    eventType: string;
    /** Why, in the administrator's words ('' when none was given); at most 500 characters. */
    reason: string;
    /** ISO-8601 UTC. */
    skippedAt: string;
  };
}
/**
 * An administrator asked the projections to apply a parked event again, after the
 * cause was fixed (a projection's code, a conflicting row). Each projection that parked it
 * re-applies it when it reaches this event in the log: on success the park is resolved as
 * retried, on the same kind of failure it stays parked with the new error.
 */
export interface ProjectionEventRetryRequested {
  type: 'ProjectionEventRetryRequested';
  data: {
    /** The projection, or null for every projection that parked it. */
    projection: string | null;
    position: number;
    eventId: string;
    eventType: string;
    /** ISO-8601 UTC. */
    requestedAt: string;
  };
}
export type OperationsEvent = ReadModelsReplayed | ProjectionEventSkipped | ProjectionEventRetryRequested;
