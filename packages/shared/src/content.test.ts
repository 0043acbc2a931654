import { describe, expect, it } from 'vitest';
import { isFeatureAvailable, ZPageQuery } from './content.ts';

describe('isFeatureAvailable (spec §5)', () => {
  it('is false for a feature that is not in the map', () => {
    expect(isFeatureAvailable({}, 'bridge')).toBe(false);
    expect(isFeatureAvailable({ reward: { t: null, a: 0 } }, 'bridge')).toBe(false);
  });

  it('is true for a feature without a total, however much is used', () => {
    expect(isFeatureAvailable({ bridge: { t: null, a: 0 } }, 'bridge')).toBe(true);
    expect(isFeatureAvailable({ bridge: { t: null, a: 1_000 } }, 'bridge')).toBe(true);
  });

  it('is true only while the total exceeds the used count', () => {
    expect(isFeatureAvailable({ 'tokens:create': { t: 5, a: 4 } }, 'tokens:create')).toBe(true);
    expect(isFeatureAvailable({ 'tokens:create': { t: 5, a: 5 } }, 'tokens:create')).toBe(false);
    expect(isFeatureAvailable({ 'tokens:create': { t: 5, a: 6 } }, 'tokens:create')).toBe(false);
    expect(isFeatureAvailable({ 'tokens:create': { t: 0, a: 0 } }, 'tokens:create')).toBe(false);
  });
});

describe('ZPageQuery', () => {
  it('defaults to the first page of 10, clamps a negative page to 0 and refuses text that is not a number', () => {
    expect(ZPageQuery.parse({})).toEqual({ page: 0, size: 10 });
    expect(ZPageQuery.parse({ page: '-3', size: '3' })).toEqual({ page: 0, size: 3 });
    expect(ZPageQuery.safeParse({ page: 'x', size: '5' }).success).toBe(false);
    expect(ZPageQuery.safeParse({ page: '0x10', size: '5' }).success).toBe(false);
    expect(ZPageQuery.parse({ page: '2', size: '100' })).toEqual({ page: 2, size: 100 });
  });

  it('refuses a size outside 1..100', () => {
    expect(ZPageQuery.safeParse({ size: '0' }).success).toBe(false);
    expect(ZPageQuery.safeParse({ size: '101' }).success).toBe(false);
    expect(ZPageQuery.safeParse({ size: 'many' }).success).toBe(false);
  });
});
