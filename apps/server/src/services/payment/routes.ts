import { z } from 'zod';
import {
  ZAccountEthAddress,
  ZConfirmPaymentRequest,
  ZEthAddressStats,
  ZProblem,
  ZQntPayment,
  ZQueryInt,
} from '@connect/shared';
import { startHere } from '../../adapters/chains/follower/index.ts';
import { serviceStatusRoute } from '../../lib/service-status.ts';
import type { App, Deps } from '../../types.ts';
import { cardRoutes } from './card-routes.ts';
import { invoiceRoutes } from './invoices/routes.ts';
import { qntPayments } from './index.ts';
import { createInvoicesRuntime } from './invoices/close.ts';
import { paymentRuntime } from './sweep.ts';
import { callerOf } from '../../lib/caller.ts';

const problems = { '4xx': ZProblem, 503: ZProblem };
const docs = { tags: ['payment'], security: [{ bearerAuth: [] }] };
/** Spec §6: an account's payment address and the address statistics are admin-only calls. */
const staff = { groups: ['management-admin' as const] };

/** The payment service (spec §7): QNT payments, card payments (card-routes.ts), invoices (invoices/routes.ts). */
export async function paymentService(app: App, deps: Deps) {
  serviceStatusRoute(app, 'payment', deps.config.version);
  const qnt = qntPayments(deps, app.log);
  await qnt.prepare();
  // The chain follower of QNT transfers to deposit addresses runs on nodes that serve payments.
  const follower = qnt.follower();
  if (follower) {
    deps.followers.add(follower);
    // Confirmed transfers in blocks the chain lost are taken back unless mined again (issue 27 §4).
    deps.followers.onConfirmedBlockLost((tx, loss, chain) => qnt.onConfirmedBlockLost(tx, loss, chain));
    // Before the first deposit address is handed out, the follower's cursor is placed at the head:
    // a transfer made before its first run is delivered all the same.
    await startHere(deps.db, follower).catch((error: unknown) => {
      app.log.warn({ err: error }, 'could not place the QNT follower at the chain head (its first step will)');
    });
  }
  // Settled deposits swept to the treasury by sweep-job.ts (when this installation holds the keys).
  deps.runtime.payment = paymentRuntime(deps, qnt, app.log);
  deps.runtime.invoices = createInvoicesRuntime(deps, app.log); // the month's close (invoices/close-job.ts)
  await cardRoutes(app, deps);
  await invoiceRoutes(app, deps, qnt);

  app.post(
    '/confirm-payment',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Tell the platform the wallet sent a QNT payment',
        description:
          'Records the transaction with the order’s QNT payment and answers the payment as it stands. A transaction the chain already has must be a QNT transfer to the order’s deposit address (422 QNT_PAYMENT_INVALID otherwise). The transfer counts once the chain follower has seen it with its confirmations, whether or not this call was made; another account’s order answers 404 ORDER_NOT_FOUND.',
        body: ZConfirmPaymentRequest,
        response: { 200: ZQntPayment, ...problems },
      },
    },
    async (request) => qnt.confirm(callerOf(request), request.body),
  );

  app.get(
    '/management/account/:id/eth-address',
    {
      config: { access: staff },
      schema: {
        ...docs,
        summary: 'An account’s deposit address and the QNT held for it (staff)',
        description: 'An account without an address yet is given one now (it keeps it for good).',
        params: z.object({ id: z.uuid() }),
        response: { 200: ZAccountEthAddress, ...problems },
      },
    },
    async (request) => qnt.accountAddress(request.params.id),
  );

  app.get(
    '/management/eth-address-stats',
    {
      config: { access: staff },
      schema: {
        ...docs,
        summary: 'How many deposit addresses are derived, and how many wait for an account (staff)',
        description: 'The portal reads it with page 0 and size 1 (spec §9); the totals do not depend on them.',
        querystring: z.object({
          page: ZQueryInt().optional(),
          size: ZQueryInt({ min: 1, max: 100 }).optional(),
        }),
        response: { 200: ZEthAddressStats, ...problems },
      },
    },
    async () => qnt.addressStats(),
  );
}
