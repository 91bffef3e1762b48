import { describe, expect, it } from 'vitest';
import { paymentOrderBody } from './order';
import { teamFeeOffer, unpaidTeammateNames, unpaidTeammates } from './team-fee';

describe('teamFeeOffer (a company team\'s captain pays for all)', () => {
  const info = { isPaid: false, isChild: false, fee: 15, feeCents: 1500, company: true };

  it('offers the captain the team total while members are unpaid', () => {
    expect(teamFeeOffer({ ...info, unpaidMembers: 3, teamFee: 45 })).toEqual({ unpaidMembers: 3, totalCents: 4500 });
    expect(teamFeeOffer({ ...info, isPaid: true, unpaidMembers: 1, teamFee: 15 })).toEqual({ unpaidMembers: 1, totalCents: 1500 });
  });

  it('offers nothing to a member, to everyone paid, or outside a company team', () => {
    expect(teamFeeOffer(info)).toBeNull();
    expect(teamFeeOffer({ ...info, unpaidMembers: 0, teamFee: 0 })).toBeNull();
    expect(teamFeeOffer({ ...info, company: false, unpaidMembers: 2, teamFee: 30 })).toBeNull();
    expect(teamFeeOffer(null)).toBeNull();
  });
});

describe('paymentOrderBody for a team fee', () => {
  it('says forTeam only when the captain pays for the team', () => {
    const order = { isPaid: false, country: 'EE', methodCode: 'swedbank', cents: 4500, lang: 'et' as const };
    expect(paymentOrderBody({ ...order, forTeam: true })).toMatchObject({ grandTotal: 45, forTeam: true });
    expect(paymentOrderBody(order)).not.toHaveProperty('forTeam');
  });
});

describe('unpaidTeammates and their names', () => {
  it('counts the teammates a team fee covers besides the payer', () => {
    expect(unpaidTeammates({ unpaidMembers: 3, totalCents: 4500 }, false)).toBe(2);
    expect(unpaidTeammates({ unpaidMembers: 1, totalCents: 1500 }, false)).toBe(0);
    expect(unpaidTeammates({ unpaidMembers: 2, totalCents: 3000 }, true)).toBe(2);
    expect(unpaidTeammates(null, false)).toBe(0);
  });

  it('names the unpaid members other than the payer', () => {
    const member = (id: number, full_name: string | null, is_paid: boolean) => ({
      id, full_name, is_paid, is_captain: id === 1, team: { id: 7, team_name: 'Firma' }, distance: 0, created_at: '2025-04-01T00:00:00Z',
    });
    expect(unpaidTeammateNames([member(1, 'Kadri', false), member(2, 'Mikk', false), member(3, 'Mari', true), member(4, null, false)], 1)).toEqual(['Mikk']);
  });
});
