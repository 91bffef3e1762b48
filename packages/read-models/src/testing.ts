/**
 * Test helpers for the projections' pure folds (not exported by the package): recorded events as
 * the store hands them over, with rising global positions.
 */
import type { RecordedEvent } from '@sinilill/event-store';

let position = 0;

/** A recorded event of `type` with `data`, the next global position, recorded by the system at the epoch. */
export function recordedEvent(type: string, data: object): RecordedEvent {
  position += 1;
  return {
    id: `e${position}`, type, schemaVersion: 1, data, stream: 's', revision: 0, globalPosition: position,
    recordedAt: new Date(0), metadata: { actor: { userId: null, role: 'SYSTEM' }, correlationId: 'c', causationId: null },
  };
}
