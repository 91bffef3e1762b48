import { describe, expect, it } from 'vitest';
import { paymentOrderBody } from './order';
import { teamFeeOffer } from './team-fee';

describe('teamFeeOffer (issue 14: a company team\'s captain pays for all)', () => {
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
