import type { Database } from '@connect/db';
import {
  PLAN_ALLOWANCES,
  type TAuditAction,
  type TSubscriptionTier,
  type TSubscriptionTierInput,
  type TSubscriptionTiersResponse,
} from '@connect/shared';
import { pgErrorCode } from '../../lib/db-errors.ts';
import { fieldProblem, notFound, problem } from '../../lib/errors.ts';
import { AuditLogRepository, type AuditActor } from '../../repositories/audit-log.ts';
import { TierRepository, type TierRecord, type TierValues } from './tier-repository.ts';

const PG_FOREIGN_KEY_VIOLATION = '23503';
const RECORD_TYPE = 'subscription_tier';

/** The tier as staff see it (the answer of every tier call). */
export function presentTier({ plan, bundles, usage }: TierRecord): TSubscriptionTier {
  // The trial is never a tier (tier-repository.ts), so the type is one of the table's.
  const type = plan.type === 'TRIAL' ? 'PAY_AS_YOU_GO' : plan.type;
  return {
    id: plan.id,
    code: plan.code,
    name: plan.name,
    type,
    tier: plan.tier,
    productId: plan.productId,
    shortDescription: plan.shortDescription,
    fullDescription: plan.fullDescription,
    order: plan.sortOrder,
    feeGbpMinor: plan.feeGbpMinor,
    qntPrice: plan.qntPrice === null ? null : plan.qntPrice.toString(),
    creditPriceUsdCents: plan.creditPriceUsdCents,
    upfrontMonths: plan.upfrontMonths,
    paymentMethods: plan.paymentMethods,
    allowances: Object.fromEntries(PLAN_ALLOWANCES.map((key) => [key, plan[key]])) as TSubscriptionTier['allowances'],
    creditBundles: bundles.map((bundle) => ({
      id: bundle.id,
      credits: bundle.credits,
      priceUsdCents: bundle.priceUsdCents,
      isOrdered: bundle.isOrdered,
    })),
    retired: !plan.isActive,
    usage,
    createdAt: new Date(plan.createdAt).toISOString(),
  };
}

/** What the audit log keeps of a tier: everything staff set (not its usage). */
function audited(record: TierRecord): Record<string, unknown> {
  const { usage: _usage, createdAt: _createdAt, creditBundles, ...tier } = presentTier(record);
  return { ...tier, creditBundles: creditBundles.map(({ isOrdered: _isOrdered, ...bundle }) => bundle) };
}

/** The keys whose values differ, before and after (the audit log keeps what an action changed). */
function changes(before: Record<string, unknown>, after: Record<string, unknown>) {
  const keys = Object.keys(after).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  return {
    before: Object.fromEntries(keys.map((key) => [key, before[key]])),
    after: Object.fromEntries(keys.map((key) => [key, after[key]])),
  };
}

function valuesOf(input: TSubscriptionTierInput): TierValues {
  return {
    name: input.name,
    type: input.type,
    tier: input.tier,
    productId: input.productId,
    shortDescription: input.shortDescription,
    fullDescription: input.fullDescription,
    feeGbpMinor: input.feeGbpMinor,
    qntPrice: input.qntPrice === null ? null : BigInt(input.qntPrice),
    creditPriceUsdCents: input.creditPriceUsdCents,
    upfrontMonths: input.upfrontMonths,
    paymentMethods: input.paymentMethods,
    ...input.allowances,
  };
}

/** `Annual — Gold` → `annual-gold`: the code of a new tier (the seed matches rows by code). */
export function codeFromName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  return slug || 'tier';
}

/**
 * The subscription tiers (issue 33 §3): staff create, edit, order, retire and delete the plans
 * customers buy. Every change is one transaction with its audit entry. Orders freeze their prices
 * when placed, so an edit applies to orders placed after it; a retired tier is hidden from sale
 * (GET /plans, POST /order/plan, a downgrade) while the accounts on it keep it and renew it.
 */
export class SubscriptionTiers {
  private readonly repo: TierRepository;

  constructor(db: Database) {
    this.repo = new TierRepository(db);
  }

  async list(): Promise<TSubscriptionTiersResponse> {
    return { tiers: (await this.repo.list()).map(presentTier) };
  }

  create(actor: AuditActor, input: TSubscriptionTierInput): Promise<TSubscriptionTier> {
    return this.repo.transaction(async (repo, tx) => {
      if (await repo.nameTaken(input.name)) throw fieldProblem('TIER_NAME_EXISTS', 'name');
      const base = codeFromName(input.name);
      let code = base;
      for (let n = 2; await repo.codeTaken(code); n++) code = `${base}-${n}`;
      const plan = await repo.insert(code, valuesOf(input));
      await repo.replaceBundles(plan.id, [], input.creditBundles);
      const created = (await repo.find(plan.id))!;
      await this.audit(tx, actor, 'TIER_CREATED', plan.id, { before: null, after: audited(created) });
      return presentTier(created);
    });
  }

  update(actor: AuditActor, id: string, input: TSubscriptionTierInput): Promise<TSubscriptionTier> {
    return this.repo.transaction(async (repo, tx) => {
      const before = await this.lockedTier(repo, id);
      const inUse = before.usage.accounts + before.usage.orders > 0;
      // The accounts on it are billed by its type (yearly or monthly) and ranked by its tier.
      if (inUse && (input.type !== before.plan.type || input.tier !== before.plan.tier)) {
        throw fieldProblem('TIER_TYPE_FIXED', input.type !== before.plan.type ? 'type' : 'tier');
      }
      if (await repo.nameTaken(input.name, id)) throw fieldProblem('TIER_NAME_EXISTS', 'name');
      const current = new Map(before.bundles.map((bundle) => [bundle.id, bundle]));
      for (const [index, bundle] of input.creditBundles.entries()) {
        if (bundle.id && !current.has(bundle.id)) {
          throw fieldProblem('CREDIT_BUNDLE_NOT_FOUND', `creditBundles.${index}`);
        }
      }
      const kept = new Set(input.creditBundles.map((bundle) => bundle.id));
      const removedOrdered = before.bundles.find((bundle) => bundle.isOrdered && !kept.has(bundle.id));
      if (removedOrdered) {
        throw problem('CREDIT_BUNDLE_IN_USE', {
          detail: `Customers have ordered the bundle of ${removedOrdered.credits} credits, so it cannot be removed. Change its price instead.`,
        });
      }
      await repo.update(id, valuesOf(input));
      await repo.replaceBundles(id, before.bundles, input.creditBundles);
      const after = (await repo.find(id))!;
      const changed = changes(audited(before), audited(after));
      if (Object.keys(changed.after).length > 0) await this.audit(tx, actor, 'TIER_UPDATED', id, changed);
      return presentTier(after);
    });
  }

  /** Every tier once, first to last; anything else (a tier added or deleted meanwhile) is stale. */
  reorder(actor: AuditActor, tierIds: readonly string[]): Promise<TSubscriptionTiersResponse> {
    return this.repo.transaction(async (repo, tx) => {
      const locked = await repo.lockAll();
      if (locked.length !== tierIds.length || !tierIds.every((id) => locked.includes(id))) {
        throw problem('TIER_ORDER_STALE');
      }
      const before = await repo.list();
      await repo.reorder(tierIds);
      for (const [index, id] of tierIds.entries()) {
        const was = before.find((record) => record.plan.id === id)!.plan.sortOrder;
        if (was !== index + 1) {
          await this.audit(tx, actor, 'TIER_REORDERED', id, { before: { order: was }, after: { order: index + 1 } });
        }
      }
      return { tiers: (await repo.list()).map(presentTier) };
    });
  }

  /** Retired: hidden from sale, kept by the accounts on it. Again in the same state changes nothing. */
  setRetired(actor: AuditActor, id: string, retired: boolean): Promise<TSubscriptionTier> {
    return this.repo.transaction(async (repo, tx) => {
      const before = await this.lockedTier(repo, id);
      if (before.plan.isActive === !retired) return presentTier(before);
      await repo.setOnSale(id, !retired);
      await this.audit(tx, actor, retired ? 'TIER_RETIRED' : 'TIER_UNRETIRED', id, {
        before: { retired: !retired },
        after: { retired },
      });
      return presentTier((await repo.find(id))!);
    });
  }

  /** Deletes a tier nothing names; one an account, order or invoice (through its order) names can only be retired. */
  async remove(actor: AuditActor, id: string): Promise<void> {
    try {
      await this.repo.transaction(async (repo, tx) => {
        const before = await this.lockedTier(repo, id, 'update');
        const { accounts, orders } = before.usage;
        if (accounts + orders > 0) {
          throw problem('TIER_IN_USE', {
            detail: `This tier is in use by ${accounts} account${accounts === 1 ? '' : 's'} and ${orders} order${orders === 1 ? '' : 's'}, so it cannot be deleted. Retire it instead to stop selling it.`,
          });
        }
        await repo.delete(id);
        await this.audit(tx, actor, 'TIER_DELETED', id, { before: audited(before), after: null });
      });
    } catch (error) {
      // An order placed for it between the check and the delete: the foreign key refuses.
      if (pgErrorCode(error) === PG_FOREIGN_KEY_VIOLATION) throw problem('TIER_IN_USE');
      throw error;
    }
  }

  /**
   * The tier, its row locked for the rest of the transaction: `no key update` for a change (orders
   * being placed for it meanwhile are not held up), `update` for the delete (they wait, and then
   * find it gone).
   */
  private async lockedTier(repo: TierRepository, id: string, strength: 'update' | 'no key update' = 'no key update') {
    const record = await repo.find(id, { lock: strength });
    if (!record) throw notFound('TIER_NOT_FOUND');
    return record;
  }

  private async audit(
    tx: Database,
    actor: AuditActor,
    action: TAuditAction,
    id: string,
    values: { before: Record<string, unknown> | null; after: Record<string, unknown> | null },
  ) {
    await new AuditLogRepository(tx).record(actor, { action, recordType: RECORD_TYPE, recordId: id, ...values });
  }
}
