import { describe, expect, it } from 'vitest';
import { edition2025 } from '../edition/seed';
import type { EntryAdded, EntryFlagged } from '../events';
import { adminActor, deciderSpec, participantActor, systemActor, testContext } from '../testing';
import type { AddEntry, ReviewEntry } from './decider';
import { entryDecider } from './decider';
import { moderationReasons, nearestRank, type ModeratedEntry, type TeamDay } from './moderation';

const rules = edition2025.moderation;
/** km rounded to hundredths, as entries carry them. */
const km = (value: number): number => Math.round(value * 100) / 100;
const entry = (overrides: Partial<ModeratedEntry> = {}): ModeratedEntry => ({
  entryId: 1, distance: 5, entryType: 'WALK', performedAt: '2025-04-09', ...overrides,
});

describe('moderationReasons', () => {
  it('passes an ordinary entry', () => {
    expect(moderationReasons(rules, entry(), [])).toEqual([]);
  });

  describe.each([
    ['WALK', 60, 80],
    ['OUTDOOR_RUN', 60, 100],
    ['OUTDOOR_CYCLE', 300, 400],
    ['SWIMMING', 15, 20],
    ['a free-text type', 100, 150],
  ])('%s: %s km per entry, %s km per day', (entryType, perEntry, perDay) => {
    it('passes exactly at the per-entry limit and flags 0.01 km over', () => {
      expect(moderationReasons(rules, entry({ entryType, distance: perEntry }), [])).toEqual([]);
      expect(moderationReasons(rules, entry({ entryType, distance: km(perEntry + 0.01) }), [])).toEqual([
        { rule: 'MAX_KM_PER_ENTRY', limit: perEntry, value: km(perEntry + 0.01) },
      ]);
    });

    it("passes a day sum exactly at the limit and flags 0.01 km over (the participant's same type and date only)", () => {
      const rest = perDay - perEntry;
      const sameDay = [
        entry({ entryId: 2, entryType, distance: km(rest - 0.01) }),
        entry({ entryId: 3, entryType, distance: 0.01 }),
        entry({ entryId: 4, entryType: entryType === 'WALK' ? 'SKIING' : 'WALK', distance: 30 }),
        entry({ entryId: 5, entryType, distance: 40, performedAt: '2025-04-10' }),
      ];
      expect(moderationReasons(rules, entry({ entryType, distance: perEntry }), sameDay)).toEqual([]);
      expect(moderationReasons(rules, entry({ entryType, distance: km(perEntry - 0.01) }), [...sameDay, entry({ entryId: 6, entryType, distance: 0.02 })]))
        .toEqual([{ rule: 'MAX_KM_PER_DAY', limit: perDay, value: km(perDay + 0.01) }]);
    });
  });

  it('ignores the entry itself among the day\'s entries (an edit)', () => {
    expect(moderationReasons(rules, entry({ distance: 50 }), [entry({ distance: 50 })])).toEqual([]);
  });

  it('flags the same date, type and distance twice, naming the other entry', () => {
    const other = entry({ entryId: 7, distance: 5.5 });
    expect(moderationReasons(rules, entry({ distance: 5.5 }), [other])).toEqual([
      { rule: 'DUPLICATE', limit: null, value: 5.5, duplicateOf: 7 },
    ]);
    expect(moderationReasons(rules, entry({ distance: 5.51 }), [other])).toEqual([]);
    expect(moderationReasons(rules, entry({ distance: 5.5, entryType: 'OUTDOOR_RUN' }), [other])).toEqual([]);
    expect(moderationReasons(rules, entry({ distance: 5.5, performedAt: '2025-04-10' }), [other])).toEqual([]);
    expect(moderationReasons({ ...rules, duplicates: false }, entry({ distance: 5.5 }), [other])).toEqual([]);
  });

  it('does not call an edit to 0 km a duplicate of another 0', () => {
    expect(moderationReasons(rules, entry({ distance: 0 }), [entry({ entryId: 2, distance: 0 })])).toEqual([]);
  });
});

describe('the entry decider and moderation', () => {
  const { given } = deciderSpec(entryDecider);
  const now = '2025-04-10T09:00:00.000Z';
  const member = testContext({ now });
  const admin = testContext({ now, actor: adminActor });
  const ADMIN = adminActor.userId!;
  const add = (distance: number, sameDay?: ModeratedEntry[]): AddEntry => ({
    type: 'AddEntry',
    data: { entryId: 100, teamId: 1, participantId: 1, participantTeamId: 1, distance, entryType: 'WALK', performedAt: '2025-04-09', ...(sameDay ? { sameDay } : {}) },
  });
  const added = (distance: number): EntryAdded => ({
    type: 'EntryAdded',
    data: { entryId: 100, teamId: 1, participantId: 1, distance, entryType: 'WALK', performedAt: '2025-04-09', createdAt: now, source: { kind: 'manual' } },
  });
  const flagged: EntryFlagged = {
    type: 'EntryFlagged',
    data: { entryId: 100, teamId: 1, participantId: 1, reasons: [{ rule: 'MAX_KM_PER_ENTRY', limit: 60, value: 60.01 }], flaggedAt: now },
  };
  const review = (decision: 'approve' | 'reject', note = 'liiga pikk'): ReviewEntry => ({ type: 'ReviewEntry', data: { entryId: 100, decision, note } });

  it('appends EntryFlagged after EntryAdded when a rule breaks; the entry stays live', () => {
    given([]).when(add(60.01), member).then([added(60.01), flagged]);
    given([]).when(add(60), member).then([added(60)]);
    given([]).when(add(60.01), member).thenState(expect.objectContaining({ status: 'active', review: 'flagged' }) as never);
  });

  it('does not moderate admins and the system', () => {
    given([]).when(add(60.01), admin).then([added(60.01)]);
    given([]).when(add(60.01), testContext({ now, actor: systemActor })).then([added(60.01)]);
  });

  it('flags an edit that breaks a rule; a rejected entry cannot be edited, only deleted', () => {
    const edit = { type: 'EditEntry' as const, data: { entryId: 100, participantId: 1, participantTeamId: 1, distance: 70, entryType: 'WALK', performedAt: '2025-04-09' } };
    const rejected = { type: 'EntryReviewRejected' as const, data: { entryId: 100, teamId: 1, participantId: 1, note: '', decidedBy: ADMIN, decidedAt: now } };
    const events = given([added(5)]).when(edit, member).then(expect.arrayContaining([expect.objectContaining({ type: 'EntryFlagged' })]) as never);
    expect(events).toHaveLength(2);
    given([added(61), flagged, rejected]).when(edit, member).then('FORBIDDEN');
    given([added(61), flagged, rejected]).when(edit, admin).then('FORBIDDEN');
    given([added(61), flagged, rejected]).when({ type: 'DeleteEntry', data: { entryId: 100 } }, member).then(expect.anything() as never);
  });

  it('lets an admin approve or reject a flagged entry, once', () => {
    given([added(60.01), flagged]).when(review('approve', ' ok '), admin).then([
      { type: 'EntryReviewApproved', data: { entryId: 100, teamId: 1, participantId: 1, note: 'ok', decidedBy: ADMIN, decidedAt: now } },
    ]);
    given([added(60.01), flagged]).when(review('reject'), admin).then([
      { type: 'EntryReviewRejected', data: { entryId: 100, teamId: 1, participantId: 1, note: 'liiga pikk', decidedBy: ADMIN, decidedAt: now } },
    ]);
    given([added(60.01), flagged]).when(review('reject'), admin).thenState(expect.objectContaining({ review: 'rejected' }) as never);
  });

  it('answers ENTRY_NOT_UNDER_REVIEW for an entry never flagged or already decided', () => {
    given([added(5)]).when(review('approve'), admin).then('ENTRY_NOT_UNDER_REVIEW');
    const approved = { type: 'EntryReviewApproved' as const, data: { entryId: 100, teamId: 1, participantId: 1, note: '', decidedBy: ADMIN, decidedAt: now } };
    given([added(60.01), flagged, approved]).when(review('reject'), admin).then('ENTRY_NOT_UNDER_REVIEW');
  });

  it('lets only an admin decide (FORBIDDEN for members, even of the team, and the system)', () => {
    given([added(60.01), flagged]).when(review('reject'), member).then('FORBIDDEN');
    given([added(60.01), flagged]).when(review('reject'), testContext({ now, actor: participantActor(9, 2) })).then('FORBIDDEN');
    given([added(60.01), flagged]).when(review('reject'), testContext({ now, actor: systemActor })).then('FORBIDDEN');
  });

  it('refuses a bad decision or a long note', () => {
    given([added(60.01), flagged]).when({ type: 'ReviewEntry', data: { entryId: 100, decision: 'maybe' as never, note: '' } }, admin).then('INVALID_REQUEST');
    given([added(60.01), flagged]).when(review('reject', 'x'.repeat(501)), admin).then('VALUE_TOO_LONG');
  });
});

describe('TEAM_DAY_OUTLIER: a team\'s day per member against the other teams\'', () => {
  // 2025: factor 4 × the 90th percentile (nearest rank) of the other teams' km per member, from 10 teams.
  const others = [1, 2, 2, 3, 3, 4, 4, 5, 6, 8]; // 90th percentile by nearest rank: 6 km → limit 24 km per member
  const day = (overrides: Partial<TeamDay> = {}): TeamDay => ({ otherHundredths: 4000, members: 4, othersPerMember: others, ...overrides });

  it('takes the percentile by nearest rank', () => {
    expect(nearestRank(others, 0.9)).toBe(6);
    expect(nearestRank([3], 0.9)).toBe(3);
    expect(nearestRank([], 0.9)).toBeNull();
  });

  it('passes exactly at factor × percentile per member and flags 0.01 km per member over', () => {
    // 40 km already, 4 members: a 56 km entry makes 96 km, 24 km per member: exactly the limit.
    expect(moderationReasons(rules, entry({ distance: 56 }), [], day())).toEqual([]);
    // 0.04 km more for the team is 0.01 km more per member.
    expect(moderationReasons(rules, entry({ distance: 56.04 }), [], day())).toEqual([{ rule: 'TEAM_DAY_OUTLIER', limit: 24, value: 24.01 }]);
  });

  it('needs at least minTeams other teams with km that day', () => {
    const nine = others.slice(1);
    expect(moderationReasons(rules, entry({ distance: 59 }), [], day({ othersPerMember: nine }))).toEqual([]);
    expect(moderationReasons(rules, entry({ distance: 59 }), [], day())).toEqual([{ rule: 'TEAM_DAY_OUTLIER', limit: 24, value: 24.75 }]);
  });

  it('is not applied without the team\'s day (no look-up), nor by an edition without the rule', () => {
    expect(moderationReasons(rules, entry({ distance: 59 }), [])).toEqual([]);
    const { teamDayOutlier: _off, ...without } = rules;
    expect(moderationReasons(without, entry({ distance: 59 }), [], day())).toEqual([]);
  });
});
