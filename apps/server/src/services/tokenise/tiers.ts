import { TIER_TYPES, TOKEN_TYPES, type TTierType, type TTokenType } from '@connect/shared';
import type { TokenRepository } from './repository.ts';

/**
 * Credits per tier (decided in docs/decisions/tokens-and-chains.md "Tokens"): a platform deployment (the platform
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
 * The tiers' display names and descriptions as seeded — the same as `getTier()` of
 * @connect/contracts answers (tiers.test.ts holds them equal). Seeding must not need the compiled
 * contracts: on a clean checkout they compile on first use (tens of seconds), which would stall
 * every app start.
 */
const FLEX =
  'Base, plus minting by the minter up to a maximum supply, burning, and a remint option that lets burnt tokens be minted again.';
export const TIER_TEXT: Record<TTokenType, Record<TTierType, { name: string; description: string }>> = {
  QRC20: {
    base: {
      name: 'Base',
      description: 'A fixed supply issued to one holder at deployment; tokens can be transferred.',
    },
    flex: { name: 'Flex', description: FLEX },
    vari: {
      name: 'Vari',
      description:
        'Flex, plus an owner who can pause and resume transfers, appoint the minter and hand over ownership.',
    },
  },
  QRC721: {
    base: {
      name: 'Base',
      description:
        'A fixed set of tokens issued to one holder at deployment; tokens can be transferred. Each token has a URI under the base URI.',
    },
    flex: { name: 'Flex', description: FLEX },
    vari: {
      name: 'Vari',
      description:
        'Flex, plus an owner who can pause and resume transfers, appoint the minter, change the base URI and hand over ownership.',
    },
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
      TIER_TYPES.map((tierType) => {
        const text = TIER_TEXT[tokenType][tierType];
        const credits = TIER_CREDITS[tokenType][tierType];
        return {
          networkId,
          tokenType,
          tierType,
          name: text.name,
          description: text.description,
          deploymentCredits: credits.deployment,
          bytecodeCredits: credits.bytecode,
        };
      }),
    ),
  );
  await repo.insertTiers(rows);
}
