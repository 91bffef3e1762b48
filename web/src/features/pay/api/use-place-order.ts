import { useEffect, useState } from 'react';
import type { CatalogueCode } from '../../../lib/errors/catalogue';
import { usePaymentInfoStore } from '../../../lib/payment-info-store';
import { useAction } from '../../../lib/use-action';
import { useLang } from '../../../lib/use-lang';
import { checkOrder, type OrderDraft, paymentOrderBody } from '../utils/order';
import { createPaymentOrder } from './create-payment-order';

/** An order as a form submits it: the checks' draft plus what the body needs. */
export interface OrderRequest extends OrderDraft {
  /** false: the participation fee; true: a donation (spec §3 "Payment request"). */
  isPaid: boolean;
  country: string;
  /** A company team's captain pays the fee of every unpaid member at once. */
  forTeam?: boolean;
}

export interface PlaceOrder {
  /**
   * Checks the order as the server would (NOT_SELECTED, AMOUNT_TOO_LOW), then POSTs it and sends
   * the browser to the provider's checkout. Resolves to the refusal's code, or null once the
   * browser is on its way.
   */
  place: (request: OrderRequest) => Promise<CatalogueCode | null>;
  /** Why the last attempt was refused (the client's check or the server's answer), else null. */
  code: CatalogueCode | null;
  /** An order is being sent, or the browser is leaving for the checkout: the button waits. */
  busy: boolean;
  /** The order was accepted and the browser is leaving for the checkout. */
  redirecting: boolean;
}

/**
 * Sending an order of the pay page (fee or donation). ALREADY_PAID_FOR means the page's payment
 * info is out of date: it is loaded again, and the page switches to the donation form.
 */
export function usePlaceOrder(): PlaceOrder {
  const lang = useLang();
  const action = useAction(createPaymentOrder);
  const { reset } = action;
  const [checkProblem, setCheckProblem] = useState<CatalogueCode | null>(null);
  // The browser's back button from the checkout may show this page from its cache as it was
  // left, "redirecting": the form is usable again.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [reset]);

  const place = async (request: OrderRequest): Promise<CatalogueCode | null> => {
    action.reset();
    const check = checkOrder(request);
    setCheckProblem(check.ok ? null : check.code);
    if (!check.ok) return check.code;
    const outcome = await action.run(paymentOrderBody({ ...request, cents: check.cents, lang }));
    if (outcome.ok) {
      window.location.assign(outcome.result.paymentUrl);
      return null;
    }
    if (outcome.code === 'ALREADY_PAID_FOR') void usePaymentInfoStore.getState().load();
    return outcome.code ?? null;
  };

  const redirecting = action.state.status === 'success';
  return {
    place,
    code: checkProblem ?? (action.state.status === 'error' ? action.state.code : null),
    busy: action.pending || redirecting,
    redirecting,
  };
}
