import { z } from 'zod';
import {
  ZProblem,
  ZStaffPlanChange,
  ZStaffPlanChangeRequest,
  ZTrialExtension,
  ZTrialExtensionRequest,
  type TStaffPlanChange,
  type TStaffPlanChangeRequest,
  type TTrialExtension,
} from '@connect/shared';
import { callerOf } from '../../lib/caller.ts';
import { notFound, problem } from '../../lib/errors.ts';
import { AuditLogRepository } from '../../repositories/audit-log.ts';
import type { App, Deps } from '../../types.ts';
import { AccountPlansRepository } from '../../repositories/account-plans.ts';
import { PlanLifecycle } from './lifecycle.ts';
import { AccountPlanRepository } from './repository.ts';
import type { PlanEvent, PlanState } from './transitions.ts';

const problems = { '4xx': ZProblem };
const docs = { tags: ['account-plan'], security: [{ bearerAuth: [] }] };
/** Spec §2: the trial extension is part of account management (management-sales). */
const sales = { groups: ['management-sales' as const] };
const DAY_MS = 86_400_000;

/**
 * Staff change an account's plan (issue 33 §1), always through the plan's own transitions
 * (transitions.ts) so the customer is told and the allowances follow as for any change: extend a
 * trial (spec §4 "A trial can be extended"), disable or enable the plan, cancel it at the
 * period's end or keep it, choose a lower plan for the next period. Each change is audited.
 */
export async function staffPlanRoutes(app: App, deps: Deps) {
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

  const catalogue = new AccountPlanRepository(deps.db);

  /** The transition each staff action applies (a downgrade names its plan, on sale, or null to keep the plan). */
  async function eventOf(request: TStaffPlanChangeRequest): Promise<PlanEvent> {
    switch (request.action) {
      case 'DISABLE':
        return { type: 'DISABLED_BY_STAFF' };
      case 'ENABLE':
        return { type: 'ENABLED_BY_STAFF' };
      case 'CANCEL':
        return { type: 'CANCEL_REQUESTED' };
      case 'KEEP':
        return { type: 'CANCEL_WITHDRAWN' };
      case 'DOWNGRADE': {
        if (request.ratePlanId === null) return { type: 'DOWNGRADE_CHOSEN', plan: null };
        const plan = await catalogue.activePlan(request.ratePlanId);
        if (!plan) throw notFound('RATE_PLAN_NOT_FOUND');
        return { type: 'DOWNGRADE_CHOSEN', plan: { id: plan.id, type: plan.type, tier: plan.tier, name: plan.name } };
      }
    }
  }

  const summary = (state: PlanState) => ({
    planStatus: state.status,
    statusReason: state.statusReason,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    nextPlanName: state.nextPlan?.name ?? null,
  });

  app.post(
    '/management/accounts/:accountId/plan-change',
    {
      config: { access: sales },
      schema: {
        ...docs,
        summary: 'Change an account’s plan without money (sales)',
        description:
          'Through the plan’s own transitions, as the customer’s own calls: DISABLE (the plan is DISABLED, reason STAFF, its allowances out of service) and ENABLE; CANCEL (at the period’s end) and KEEP (withdraw that); DOWNGRADE to a lower plan on sale from the next period (ratePlanId null keeps the current plan). An upgrade is an order the customer pays. A change the plan’s state does not allow answers the transition’s 409 (PLAN_CHANGE_NOT_APPLICABLE, SUBSCRIPTION_NOT_CANCELLABLE, SUBSCRIPTION_NOT_CANCELLED, PLAN_ALREADY_CURRENT); an unknown account or plan 404. Audited (PLAN_CHANGED) with the reason and the plan before and after.',
        params: z.object({ accountId: z.uuid() }),
        body: ZStaffPlanChangeRequest,
        response: { 200: ZStaffPlanChange, ...problems },
      },
    },
    async (request): Promise<TStaffPlanChange> => {
      const { accountId } = request.params;
      const event = await eventOf(request.body);
      return deps.db.transaction(async (tx) => {
        const before = await new AccountPlansRepository(tx, deps.events).state(accountId, { lock: true });
        if (!before) throw notFound('NOT_FOUND', 'The account was not found.');
        const after = await lifecycle.apply(accountId, event, { tx });
        await new AuditLogRepository(tx).record(
          { ...callerOf(request), requestId: request.id },
          {
            action: 'PLAN_CHANGED',
            recordType: 'account',
            recordId: accountId,
            before: { plan: before.plan.name, ...summary(before) },
            after: {
              plan: after.plan.name,
              ...summary(after),
              action: request.body.action,
              reason: request.body.reason,
            },
          },
        );
        return { accountId, ...summary(after) };
      });
    },
  );
}
