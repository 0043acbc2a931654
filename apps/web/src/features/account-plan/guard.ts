import { redirect } from 'react-router';
import { paths } from '../../config/paths.ts';
import { planInfoQuery } from '../../lib/plan.ts';
import { subscriptionQuery } from '../../lib/plans/api.ts';
import { queryClient } from '../../lib/query-client.ts';
import { session } from '../../lib/storage.ts';

/** The query parameters a card or wallet payment returns with (later issues): their page must open. */
const RETURN_PARAMS = ['setup_intent', 'payment_intent'] as const;

/**
 * The guard of /account-plan/upgrade (spec §2, §5): with the plan PENDING (an order awaiting its
 * payment) and neither setup_intent nor payment_intent in the query, the user goes to the
 * dashboard — unless the plan waits for an order of the customer's own (any method): the stepper
 * then shows that order, to resume its payment or cancel it (issue 28; a QNT payment live, as
 * before). A cached PENDING is read again first, so an order paid or cancelled a moment ago
 * does not send the user away. A plan that cannot be read lets the page open (it loads its own data).
 */
export async function upgradeGuard(request: Request): Promise<Response | null> {
  if (!session.userUuid()) return null; // no session: the root gate sends the user to /login
  const query = new URL(request.url).searchParams;
  if (RETURN_PARAMS.some((name) => query.has(name))) return null;
  try {
    let plan = await queryClient.fetchQuery(planInfoQuery());
    if (plan.status === 'PENDING') plan = await queryClient.fetchQuery({ ...planInfoQuery(), staleTime: 0 });
    if (plan.status !== 'PENDING') return null;
  } catch {
    return null;
  }
  return (await hasOrderToResume()) ? null : redirect(paths.dashboard);
}

/** Whether the plan waits for an order still awaiting its payment (read fresh; unreadable counts as no). */
async function hasOrderToResume(): Promise<boolean> {
  try {
    const subscription = await queryClient.fetchQuery({ ...subscriptionQuery(), staleTime: 0 });
    return subscription.pendingOrder?.status === 'AWAITING_PAYMENT';
  } catch {
    return false;
  }
}
