/** The prize draw's decider and eligibility as of the deadline. */
import { describe, expect, it } from 'vitest';
import { edition2025, edition2026Demo } from '../edition/seed';
import type { DrawCommitted, DrawEvent } from '../events';
import { adminActor, deciderSpec, participantActor, testContext } from '../testing';
import { drawDecider, eligibleAsOfDeadline, type DrawCommand, type DrawState, type LoggedEvent } from './index';

const { given } = deciderSpec<DrawCommand, DrawEvent, DrawState>(drawDecider);
const commitment = 'ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb'; // sha256('a' * 64)
const rules = { lateEntriesUntil: '2025-05-03', timeZone: 'Europe/Tallinn' };
const drawAt = '2025-05-05T14:00:00.000Z';
const at = (now: string) => testContext({ now, actor: adminActor });
const committed: DrawCommitted = { type: 'DrawCommitted', data: { year: 2025, commitment, drawAt, winners: 2, committedAt: '2025-05-01T10:00:00.000Z' } };
const reveal = (seedSha256: string): DrawCommand => ({
  type: 'RevealDraw',
  data: { year: 2025, seed: 'a'.repeat(64), seedSha256, asOf: 'x', eligible: [1, 2], eligibleListHash: 'h', winners: [{ participantId: 2, teamId: 9 }] },
});

describe('CommitDraw', () => {
  const commit = (over: Partial<{ drawAt: string; winners: number; commitment: string }> = {}): DrawCommand => ({
    type: 'CommitDraw', data: { year: 2025, commitment, drawAt, winners: 2, ...rules, ...over },
  });
  it('records the commitment, the draw instant (normalised to UTC) and the number of winners', () => {
    given([]).when(commit({ drawAt: '2025-05-05T17:00:00+03:00' }), at('2025-05-01T10:00:00.000Z'))
      .then([{ type: 'DrawCommitted', data: { year: 2025, commitment, drawAt, winners: 2, committedAt: '2025-05-01T10:00:00.000Z' } }]);
  });
  it('refuses a draw on or before 3 May in Tallinn, a second commitment, bad input and non-admins', () => {
    given([]).when(commit({ drawAt: '2025-05-03T20:59:59Z' }), at('2025-05-01T10:00:00Z')).then('DRAW_NOT_YET_ALLOWED');
    given([]).when(commit({ drawAt: '2025-05-03T21:00:00Z' }), at('2025-05-01T10:00:00Z')).then([expect.objectContaining({ type: 'DrawCommitted' })] as never);
    given([committed]).when(commit(), at('2025-05-01T10:00:00Z')).then('DRAW_ALREADY_COMMITTED');
    given([]).when(commit({ commitment: 'ABC' }), at('2025-05-01T10:00:00Z')).then('INVALID_REQUEST');
    given([]).when(commit({ winners: 0 }), at('2025-05-01T10:00:00Z')).then('INVALID_REQUEST');
    given([]).when(commit(), testContext({ now: '2025-05-01T10:00:00Z', actor: participantActor(1, 2) })).then('FORBIDDEN');
  });
});

describe('RevealDraw', () => {
  it('reveals the seed and records the winners at or after drawAt when the seed matches', () => {
    given([committed]).when(reveal(commitment), at(drawAt)).then([
      { type: 'DrawSeedRevealed', data: { year: 2025, seed: 'a'.repeat(64), revealedAt: drawAt } },
      { type: 'DrawWinnersChosen', data: { year: 2025, asOf: 'x', eligible: [1, 2], eligibleCount: 2, eligibleListHash: 'h', winners: [{ participantId: 2, teamId: 9 }] } },
    ]);
  });
  it('refuses without a commitment, before drawAt, with another seed, and a second time', () => {
    given([]).when(reveal(commitment), at(drawAt)).then('DRAW_NOT_COMMITTED');
    given([committed]).when(reveal(commitment), at('2025-05-05T13:59:59.999Z')).then('DRAW_NOT_YET_ALLOWED');
    given([committed]).when(reveal('0'.repeat(64)), at(drawAt)).then('DRAW_SEED_MISMATCH');
    given([committed, { type: 'DrawSeedRevealed', data: { year: 2025, seed: 's', revealedAt: drawAt } }]).when(reveal(commitment), at(drawAt)).then('DRAW_ALREADY_DONE');
  });
});

describe('eligibleAsOfDeadline', () => {
  const registered = (participantId: number, teamId: number, registeredAt = '2025-04-01T08:00:00Z', edition = 2025): LoggedEvent =>
    ({ type: 'ParticipantRegistered', data: { participantId, teamId, edition, registeredAt } });
  const paid = (participantId: number, isPaid = true): LoggedEvent => ({ type: 'ParticipantPaymentMarked', data: { participantId, isPaid } });
  const entry = (entryId: number, teamId: number, distance: number, createdAt = '2025-04-10T08:00:00Z'): LoggedEvent =>
    ({ type: 'EntryAdded', data: { entryId, teamId, participantId: 0, distance, createdAt } });

  it('takes paid participants whose team collected a flower beyond the base one (7 km, the first mission), ascending', () => {
    const events = [registered(5, 1), registered(2, 1), registered(3, 2), registered(4, 1), paid(5), paid(2), paid(3), entry(1, 1, 7), entry(2, 2, 6.49)];
    expect(eligibleAsOfDeadline(events, edition2025)).toEqual([{ participantId: 2, teamId: 1 }, { participantId: 5, teamId: 1 }]);
  });

  it('ignores what happened after 3 May 24:00 in Tallinn: late entries, registrations, payments, deletions', () => {
    const events = [
      registered(1, 1), registered(2, 2), paid(1), paid(2), entry(1, 1, 10), entry(2, 2, 3),
      entry(3, 2, 30, '2025-05-03T20:59:59Z'), // 23:59:59 in Tallinn: counts
      entry(4, 1, 0.5, '2025-05-03T21:00:00Z'), // 4 May 00:00: the log's clock is past the deadline from here on
      { type: 'ParticipantPaymentMarked', data: { participantId: 1, isPaid: false } },
      { type: 'ParticipantDeleted', data: { participantId: 2, teamId: 2, deletedAt: '2025-05-04T10:00:00Z' } },
      registered(3, 1, '2025-05-04T09:00:00Z'),
    ];
    expect(eligibleAsOfDeadline(events, edition2025)).toEqual([{ participantId: 1, teamId: 1 }, { participantId: 2, teamId: 2 }]);
  });

  it("counts only the draw's edition's participants: another edition's people and marks are not its", () => {
    // Participant 1 ran in 2025 (team 1); participant 2 is the same kind of person in 2026 (team 2).
    const events = [
      registered(1, 1), paid(1), entry(1, 1, 10),
      registered(2, 2, '2026-03-10T08:00:00Z', 2026), paid(2), entry(2, 2, 20, '2026-04-10T08:00:00Z'),
    ];
    expect(eligibleAsOfDeadline(events, edition2025)).toEqual([{ participantId: 1, teamId: 1 }]);
    expect(eligibleAsOfDeadline(events, edition2026Demo)).toEqual([{ participantId: 2, teamId: 2 }]);
  });

  it('follows edits, deletions and unmarked payments before the deadline', () => {
    const events = [
      registered(1, 1), registered(2, 2), paid(1), paid(2), paid(2, false), entry(1, 1, 10),
      { type: 'EntryEdited', data: { entryId: 1, teamId: 1, participantId: 1, distance: 2, editedAt: '2025-04-11T08:00:00Z' } },
      entry(2, 2, 10), { type: 'EntryDeleted', data: { entryId: 2, teamId: 2, participantId: 2, deletedAt: '2025-04-12T08:00:00Z' } },
    ];
    expect(eligibleAsOfDeadline(events, edition2025)).toEqual([]);
  });

  describe('rejected entries count nowhere', () => {
    const decided = (type: 'EntryReviewRejected' | 'EntryReviewApproved', entryId: number, teamId: number, decidedAt = '2025-04-20T08:00:00Z'): LoggedEvent =>
      ({ type, data: { entryId, teamId, participantId: 0, note: '', decidedBy: 'admin', decidedAt } });

    it('a team whose only km past the first mission were rejected is not eligible', () => {
      // Team 1: 5 km that count and 10 km rejected — 5 km collect no flower beyond the base one.
      const events = [registered(1, 1), paid(1), entry(1, 1, 5), entry(2, 1, 10), decided('EntryReviewRejected', 2, 1)];
      expect(eligibleAsOfDeadline(events, edition2025)).toEqual([]);
      // The same km approved instead: eligible.
      expect(eligibleAsOfDeadline([...events.slice(0, 4), decided('EntryReviewApproved', 2, 1)], edition2025)).toEqual([{ participantId: 1, teamId: 1 }]);
    });

    it('a rejection decided after the deadline still takes the km out (review follows the last days)', () => {
      const events = [registered(1, 1), paid(1), entry(1, 1, 5), entry(2, 1, 10), decided('EntryReviewRejected', 2, 1, '2025-05-04T10:00:00Z')];
      expect(eligibleAsOfDeadline(events, edition2025)).toEqual([]);
    });
  });
});
