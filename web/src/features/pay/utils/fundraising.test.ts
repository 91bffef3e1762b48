import type { FundraisingAnswer } from '@sinilill/contracts';
import { describe, expect, it } from 'vitest';
import { teamRaisedCents } from './fundraising';

const answer: FundraisingAnswer = {
  feesCents: 3000,
  donationsCents: 700,
  totalCents: 3700,
  teams: [
    { teamId: 7, feesCents: 1500, donationsCents: 500, totalCents: 2000 },
    { teamId: 9, feesCents: 1500, donationsCents: 200, totalCents: 1700 },
  ],
};

describe('teamRaisedCents', () => {
  it('gives the team\'s total in cents', () => {
    expect(teamRaisedCents(answer, 7)).toBe(2000);
    expect(teamRaisedCents(answer, 9)).toBe(1700);
  });

  it('gives 0 for a team that has raised nothing (left out of the answer)', () => {
    expect(teamRaisedCents(answer, 12)).toBe(0);
  });

  it('gives null without a team', () => {
    expect(teamRaisedCents(answer, null)).toBeNull();
  });
});
