import type { TDeploymentType } from './constants.ts';

/* Tier list building (spec §4) and which tiers a deployment method is offered (spec §5). Zod-free. */

/**
 * Spec §4 tier list building: tiers sorted by name case-insensitively; each tier's short list is
 * the functions not present in the previous tier, or its full list when none are new; refererTier
 * is the previous tier's name ('' for the first).
 */
export function buildTierList<T extends { name: string; functions: readonly string[] }>(
  tiers: readonly T[],
): (T & { refererTier: string; shortListFunctions: string[] })[] {
  const sorted = [...tiers].sort((a, b) => {
    const x = a.name.toLowerCase();
    const y = b.name.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return sorted.map((tier, i) => {
    const previous = i > 0 ? sorted[i - 1] : undefined;
    const before = new Set(previous?.functions ?? []);
    const added = tier.functions.filter((f) => !before.has(f));
    return {
      ...tier,
      refererTier: previous?.name ?? '',
      shortListFunctions: added.length ? added : [...tier.functions],
    };
  });
}

/**
 * Spec §5: a tier is offered for a deployment method only when it has the credit amounts that
 * method needs — the deployment amount for a platform deployment (QUANT), both the deployment and
 * bytecode amounts for a wallet deployment (META_MASK).
 */
export function tierOffered(
  tier: { deploymentCredits: number | null; bytecodeCredits: number | null },
  deploymentType: TDeploymentType,
): boolean {
  if (deploymentType === 'QUANT') return tier.deploymentCredits !== null;
  return tier.deploymentCredits !== null && tier.bytecodeCredits !== null;
}

/**
 * The credits a deployment costs (decided in docs/decisions/tokens-and-chains.md "Tokens"): the deployment amount
 * when the platform deploys and pays the gas; the bytecode amount when the user's wallet deploys
 * the prepared bytecode and pays the gas itself. Null when the tier is not offered that way.
 */
export function tierCreditAmount(
  tier: { deploymentCredits: number | null; bytecodeCredits: number | null },
  deploymentType: TDeploymentType,
): number | null {
  if (!tierOffered(tier, deploymentType)) return null;
  return deploymentType === 'QUANT' ? tier.deploymentCredits : tier.bytecodeCredits;
}
