import { getTier, TIER_TYPES as CONTRACT_TIER_TYPES } from '@connect/contracts';
import { TOKEN_TYPES, type TTierType, type TTokenType } from '@connect/shared';
import type { TokenRepository } from './repository.ts';

/**
 * Credits per tier (decided in docs/decisions.md "Tokens"): a platform deployment (the platform
 * pays the gas) costs the deployment amount; a wallet deployment (the user pays the gas) the
 * bytecode amount. Each tier adds functions to the one before, and costs more.
 */
export const TIER_CREDITS: Record<TTokenType, Record<TTierType, { deployment: number; bytecode: number }>> = {
  QRC20: {
    base: { deployment: 10, bytecode: 5 },
    flex: { deployment: 20, bytecode: 10 },
    vari: { deployment: 30, bytecode: 15 },
  },
  QRC721: {
    base: { deployment: 15, bytecode: 8 },
    flex: { deployment: 25, bytecode: 13 },
    vari: { deployment: 35, bytecode: 18 },
  },
};

/**
 * Seeds the tiers of every given network (both token types × three tiers), idempotently: rows
 * that exist are left alone, so staff can re-price or withdraw a tier (is_active) and keep it.
 */
export async function seedTokenTiers(repo: TokenRepository, networkIds?: string[]): Promise<void> {
  const ids = networkIds ?? (await repo.allNetworkIds());
  const rows = ids.flatMap((networkId) =>
    TOKEN_TYPES.flatMap((tokenType) =>
      CONTRACT_TIER_TYPES.map((tierType) => {
        const tier = getTier(tokenType, tierType);
        const credits = TIER_CREDITS[tokenType][tierType];
        return {
          networkId,
          tokenType,
          tierType,
          name: tier.name,
          description: tier.description,
          deploymentCredits: credits.deployment,
          bytecodeCredits: credits.bytecode,
        };
      }),
    ),
  );
  await repo.insertTiers(rows);
}
