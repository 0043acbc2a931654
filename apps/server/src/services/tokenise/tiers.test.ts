import { describe, expect, it } from 'vitest';
import { getTier, TIER_TYPES as CONTRACT_TIER_TYPES, TOKEN_TYPES as CONTRACT_TOKEN_TYPES } from '@connect/contracts';
import { TIER_TYPES, TOKEN_TYPES } from '@connect/shared';
import { TIER_CREDITS, TIER_TEXT } from './tiers.ts';

describe('seeded tiers', () => {
  it('name and describe every tier as the compiled contracts do', () => {
    expect([...TOKEN_TYPES]).toEqual([...CONTRACT_TOKEN_TYPES]);
    expect([...TIER_TYPES]).toEqual([...CONTRACT_TIER_TYPES]);
    for (const tokenType of TOKEN_TYPES) {
      for (const tierType of TIER_TYPES) {
        const tier = getTier(tokenType, tierType);
        expect(TIER_TEXT[tokenType][tierType]).toEqual({ name: tier.name, description: tier.description });
      }
    }
  });

  it('price each tier above the one before, the wallet deployment below the platform one', () => {
    for (const tokenType of TOKEN_TYPES) {
      const [base, flex, vari] = TIER_TYPES.map((tier) => TIER_CREDITS[tokenType][tier]);
      expect(base!.deployment).toBeLessThan(flex!.deployment);
      expect(flex!.deployment).toBeLessThan(vari!.deployment);
      for (const credits of [base!, flex!, vari!]) expect(credits.bytecode).toBeLessThan(credits.deployment);
    }
  });
});
