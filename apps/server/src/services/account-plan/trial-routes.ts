import { z } from 'zod';
import { ZProblem, ZTrialExtension, ZTrialExtensionRequest, type TTrialExtension } from '@connect/shared';
import { callerOf } from '../../lib/caller.ts';
import { notFound, problem } from '../../lib/errors.ts';
import { AuditLogRepository } from '../../repositories/audit-log.ts';
import type { App, Deps } from '../../types.ts';
import { AccountPlansRepository } from '../../repositories/account-plans.ts';
import { PlanLifecycle } from './lifecycle.ts';

const problems = { '4xx': ZProblem };
const docs = { tags: ['account-plan'], security: [{ bearerAuth: [] }] };
/** Spec §2: the trial extension is part of account management (management-sales). */
const sales = { groups: ['management-sales' as const] };
const DAY_MS = 86_400_000;

/** Staff extend an account's trial (issue 33 §1; spec §4 "A trial can be extended"). */
export async function trialManagementRoutes(app: App, deps: Deps) {
  const lifecycle = new PlanLifecycle(deps.db, deps.events, { paygCreditLimit: deps.config.billing.paygCreditLimit });

  app.post(
    '/management/accounts/:accountId/trial-extension',
    {
      config: { access: sales },
      schema: {
        ...docs,
        summary: 'Extend an account’s trial (sales)',
        description:
          'Moves the trial’s end `days` later (from today when it has ended, which makes the plan ACTIVE again), through the plan’s own transition (TRIAL_EXTENDED): the customer is told as for any plan change. An account not on the trial answers 409 TRIAL_NOT_EXTENDABLE; an unknown account 404. Audited with the reason and the end before and after.',
        params: z.object({ accountId: z.uuid() }),
        body: ZTrialExtensionRequest,
        response: { 200: ZTrialExtension, ...problems },
      },
    },
    async (request): Promise<TTrialExtension> => {
      const { accountId } = request.params;
      const { days, reason } = request.body;
      const caller = callerOf(request);
      return deps.db.transaction(async (tx) => {
        const before = await new AccountPlansRepository(tx, deps.events).state(accountId, { lock: true });
        if (!before) throw notFound('NOT_FOUND', 'The account was not found.');
        if (before.plan.type !== 'TRIAL') throw problem('TRIAL_NOT_EXTENDABLE');
        const from = Math.max(Date.now(), before.trialEndsAt?.getTime() ?? 0);
        const after = await lifecycle.apply(
          accountId,
          { type: 'TRIAL_EXTENDED', until: new Date(from + days * DAY_MS) },
          { tx },
        );
        await new AuditLogRepository(tx).record(
          { ...caller, requestId: request.id },
          {
            action: 'TRIAL_EXTENDED',
            recordType: 'account',
            recordId: accountId,
            before: { trialEndsAt: before.trialEndsAt, planStatus: before.status },
            after: { trialEndsAt: after.trialEndsAt, planStatus: after.status, days, reason },
          },
        );
        return { accountId, planStatus: after.status, trialEndsAt: after.trialEndsAt!.toISOString() };
      });
    },
  );
}
