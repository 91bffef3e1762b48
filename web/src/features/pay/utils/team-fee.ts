/**
 * A company team's fee for all its unpaid members at once (spec §9 "company team 15 EUR per
 * person"; issue 14 item 3), as GET /api/payment/info tells it to the team's captain.
 */
import type { PaymentInfoAnswer } from '@sinilill/contracts';
import { eurosToCents } from '@sinilill/domain';

/** What the captain of a company team may pay for the team: how many members and the total, EUR cents. */
export interface TeamFeeOffer {
  unpaidMembers: number;
  totalCents: number;
}

/**
 * The team fee the pay page offers: only to the captain of a company team (the answer carries
 * unpaidMembers and teamFee for them alone) while some member has not paid; null otherwise.
 */
export function teamFeeOffer(info: PaymentInfoAnswer | null): TeamFeeOffer | null {
  if (!info?.company || info.unpaidMembers === undefined || info.teamFee === undefined || info.unpaidMembers === 0) return null;
  const totalCents = eurosToCents(info.teamFee);
  return totalCents === null || totalCents === 0 ? null : { unpaidMembers: info.unpaidMembers, totalCents };
}
