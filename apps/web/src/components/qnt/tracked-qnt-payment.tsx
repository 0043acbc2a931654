import { useQuery } from '@tanstack/react-query';
import type { TOrder, TQntPayment } from '@connect/shared';
import { trackOrderQuery, useRefreshPlanWhenPaid } from '../../lib/plans/api.ts';
import { QntPaymentPanel } from './qnt-payment-panel.tsx';

/**
 * A QNT order's payment where the order is one item among others (My account's plan, the buy
 * credits dialog): tracked live while it is under way (POST /order/track, shared with any other
 * screen showing the order); once it is paid the plan, credits and counters are read again.
 */
export function TrackedQntPayment({
  order: initial,
  autoPay,
  headingComponent = 'h4',
}: {
  order: TOrder & { qnt: TQntPayment };
  autoPay?: boolean;
  headingComponent?: 'h3' | 'h4';
}) {
  const tracked = useQuery(trackOrderQuery(initial));
  const order = tracked.data.qnt ? (tracked.data as TOrder & { qnt: TQntPayment }) : initial;
  useRefreshPlanWhenPaid(order.status === 'PAID' || order.qnt.status === 'SETTLED');
  return <QntPaymentPanel order={order} autoPay={autoPay ?? false} headingComponent={headingComponent} />;
}
