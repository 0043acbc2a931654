import { ZQntPayment, type TConfirmPaymentRequest, type TQntPayment } from '@connect/shared';
import { api } from '../api.ts';

/*
 * The payment service's calls (packages/shared/src/qnt.ts). In lib/ because the upgrade journey and
 * My account both pay orders in QNT.
 */

/** POST /confirm-payment: the wallet sent the transfer; the platform's chain follower decides when it counts. */
export function confirmPayment(request: TConfirmPaymentRequest): Promise<TQntPayment> {
  return api.payment.post('/confirm-payment', request, { schema: ZQntPayment });
}
