/**
 * A company team's fee for all its unpaid members at once (spec §9 "company team 15 EUR per
 * person"), as GET /api/payment/info tells it to the team's captain.
 */
import type { PaymentInfoAnswer, TeamMembersAnswer } from '@sinilill/contracts';
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

/**
 * How many teammates besides the payer a captain's team fee would cover: the offer counts the
 * captain among the unpaid members while their own fee is unpaid. 0 without an offer.
 */
export function unpaidTeammates(offer: TeamFeeOffer | null, payerPaid: boolean): number {
  if (!offer) return 0;
  return payerPaid ? offer.unpaidMembers : Math.max(0, offer.unpaidMembers - 1);
}

/** The names of the team's unpaid members other than `participantId`, as listed (erased names left out). */
export function unpaidTeammateNames(members: TeamMembersAnswer, participantId: number | null): string[] {
  return members.filter((m) => !m.is_paid && m.id !== participantId && m.full_name !== null).map((m) => m.full_name!);
}
