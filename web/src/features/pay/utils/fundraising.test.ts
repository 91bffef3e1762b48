import type { FundraisingAnswer } from '@sinilill/contracts';
import { describe, expect, it } from 'vitest';
import { teamRaisedCents } from './fundraising';

const answer: FundraisingAnswer = {
  fees: 30,
  donations: 7,
  total: 37,
  teams: [
    { teamId: 7, fees: 15, donations: 5, total: 20 },
    { teamId: 9, fees: 15, donations: 2.01, total: 17.01 },
  ],
};

describe('teamRaisedCents', () => {
  it('gives the team\'s total in cents', () => {
    expect(teamRaisedCents(answer, 7)).toBe(2000);
    expect(teamRaisedCents(answer, 9)).toBe(1701);
  });

  it('gives 0 for a team that has raised nothing (left out of the answer)', () => {
    expect(teamRaisedCents(answer, 12)).toBe(0);
  });

  it('gives null without a team', () => {
    expect(teamRaisedCents(answer, null)).toBeNull();
  });
});
