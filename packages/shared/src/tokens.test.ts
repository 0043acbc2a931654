import { describe, expect, it } from 'vitest';
import {
  buildTierList,
  currencyCodeInName,
  currencyCodeInUnit,
  evmAddressProblem,
  tierCreditAmount,
  tierOffered,
  toChecksumAddress,
  tokenFormErrors,
  tokenFormFields,
  tokenFormSchema,
  TOKEN_MESSAGES,
  ZCreateTokenRequest,
  ZTiersQuery,
  ZTokenDetailsQuery,
  ZTokensRequest,
} from './index.ts';

const HOLDER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

describe('EIP-55 addresses', () => {
  it.each([
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ])('computes the EIP-55 checksum of %s', (address) => {
    expect(toChecksumAddress(address.toLowerCase())).toBe(address);
    expect(evmAddressProblem(address)).toBeNull();
  });

  it('accepts single-case addresses and refuses bad checksums and formats', () => {
    expect(evmAddressProblem(HOLDER.toLowerCase())).toBeNull();
    expect(evmAddressProblem('0x' + HOLDER.slice(2).toUpperCase())).toBeNull();
    expect(evmAddressProblem('0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe('checksum');
    expect(evmAddressProblem('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe')).toBe('format');
    expect(evmAddressProblem('5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed00')).toBe('format');
    expect(evmAddressProblem('0xZZAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe('format');
  });
});

describe('currency codes', () => {
  it('finds codes written in capitals in a name, not ordinary words', () => {
    expect(currencyCodeInName('My USD Coin')).toBe('USD');
    expect(currencyCodeInName('SuperGBPToken')).toBe('GBP');
    expect(currencyCodeInName('USDT Stable')).toBe('USD');
    expect(currencyCodeInName('All Top Cup Token')).toBeNull();
    expect(currencyCodeInName('Quant Token')).toBeNull();
  });

  it('finds codes anywhere in a unit, in any case', () => {
    expect(currencyCodeInUnit('EURX')).toBe('EUR');
    expect(currencyCodeInUnit('xgbp')).toBe('GBP');
    expect(currencyCodeInUnit('QNT')).toBeNull();
  });
});

describe('token form', () => {
  const qrc20Base = {
    name: 'Green Bond',
    unit: 'GRB',
    decimal: '18',
    initialSupply: '1,000',
    supplyHolderAddress: HOLDER,
  };

  it('reads numbers typed in the form as decimal digits only (issue 27): no hex, no exponent', () => {
    const errorsOf = (extra: Record<string, unknown>) =>
      tokenFormErrors('QRC20', 'flex', { ...qrc20Base, minter: HOLDER, ...extra }).map((e) => e.name);
    expect(errorsOf({})).toEqual([]);
    expect(errorsOf({ decimal: '0x10' })).toEqual(['decimal']);
    expect(errorsOf({ initialSupply: '1e3' })).toEqual(['initialSupply']);
    expect(errorsOf({ initialSupply: '1.5' })).toEqual(['initialSupply']);
    expect(errorsOf({ maxSupply: '0x10' })).toEqual(['maxSupply']);
    expect(errorsOf({ initialSupply: '1,00' })).toEqual(['initialSupply']);
    expect(tokenFormSchema('QRC20', 'base').parse({ ...qrc20Base, initialSupply: ' 1,000,000 ' }).initialSupply).toBe(
      1_000_000,
    );
    expect(tokenFormErrors('QRC20', 'base', { ...qrc20Base, initialSupply: '-1' })).toEqual([
      { name: 'initialSupply', reason: TOKEN_MESSAGES.nonNegative },
    ]);
  });

  it('takes numbers only from a JSON body (the server’s source): text is refused with the field’s message', () => {
    const json = { ...qrc20Base, decimal: 18, initialSupply: 1000 };
    expect(tokenFormErrors('QRC20', 'base', json, 'json')).toEqual([]);
    for (const [field, value] of [
      ['decimal', '18'],
      ['decimal', '0x10'],
      ['initialSupply', '1000'],
      ['initialSupply', '1e3'],
      ['initialSupply', ''],
      ['initialSupply', null],
      ['initialSupply', []],
      ['initialSupply', false],
    ] as const) {
      expect(
        tokenFormErrors('QRC20', 'base', { ...json, [field]: value }, 'json').map((e) => e.name),
        `${field}: ${JSON.stringify(value)}`,
      ).toEqual([field]);
    }
    // maxSupply left out (or null) is 0, no limit.
    expect(tokenFormSchema('QRC20', 'flex', 'json').parse({ ...json, minter: HOLDER, maxSupply: null }).maxSupply).toBe(
      0,
    );
  });

  it('lists the fields of each tier', () => {
    expect(tokenFormFields('QRC20', 'base')).toEqual([
      'name',
      'unit',
      'decimal',
      'initialSupply',
      'supplyHolderAddress',
    ]);
    expect(tokenFormFields('QRC721', 'vari')).toEqual([
      'name',
      'unit',
      'tokenUri',
      'initialSupply',
      'supplyHolderAddress',
      'minter',
      'maxSupply',
      'remintable',
      'ownerAddress',
    ]);
  });

  it('parses a valid form, numbers from text, and drops fields the tier does not take', () => {
    const parsed = tokenFormSchema('QRC20', 'base').parse({ ...qrc20Base, tokenUri: 'ignored' });
    expect(parsed).toEqual({
      name: 'Green Bond',
      unit: 'GRB',
      decimal: 18,
      initialSupply: 1000,
      supplyHolderAddress: HOLDER,
    });
  });

  it('names each invalid field with a clear reason', () => {
    const errors = tokenFormErrors('QRC20', 'flex', {
      name: 'Pound GBP',
      unit: 'USDX',
      decimal: 19,
      initialSupply: 1.5,
      supplyHolderAddress: '0x123',
      minter: '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      maxSupply: -1,
    });
    const byName = Object.fromEntries(errors.map((e) => [e.name, e.reason]));
    expect(byName).toEqual({
      name: TOKEN_MESSAGES.nameCurrency('GBP'),
      unit: TOKEN_MESSAGES.unitCurrency('USD'),
      decimal: TOKEN_MESSAGES.decimals,
      initialSupply: TOKEN_MESSAGES.initialSupply,
      supplyHolderAddress: TOKEN_MESSAGES.addressFormat,
      minter: TOKEN_MESSAGES.addressChecksum,
      maxSupply: TOKEN_MESSAGES.nonNegative,
    });
  });

  it('requires the fields and applies the limits', () => {
    const errors = tokenFormErrors('QRC721', 'vari', {});
    expect(errors.map((e) => e.name).sort()).toEqual(
      ['initialSupply', 'minter', 'name', 'ownerAddress', 'supplyHolderAddress', 'tokenUri', 'unit'].sort(),
    );
    expect(tokenFormErrors('QRC20', 'base', { ...qrc20Base, initialSupply: 1_000_000_001 })).toEqual([
      { name: 'initialSupply', reason: TOKEN_MESSAGES.initialSupply },
    ]);
    expect(tokenFormErrors('QRC20', 'base', { ...qrc20Base, initialSupply: 0, decimal: 0 })).toEqual([]);
    expect(tokenFormErrors('QRC20', 'base', { ...qrc20Base, unit: 'TOO-LONG' })).toEqual([
      { name: 'unit', reason: TOKEN_MESSAGES.unitLength },
    ]);
  });

  it('checks the base URI rule', () => {
    const form = {
      name: 'Art',
      unit: 'ART',
      initialSupply: 3,
      supplyHolderAddress: HOLDER,
    };
    expect(tokenFormErrors('QRC721', 'base', { ...form, tokenUri: 'https://example.com/meta/' })).toEqual([]);
    expect(tokenFormErrors('QRC721', 'base', { ...form, tokenUri: 'HTTP://example.com/' })).toEqual([]);
    expect(tokenFormErrors('QRC721', 'base', { ...form, tokenUri: 'https://example.com/meta' })).toEqual([
      { name: 'tokenUri', reason: TOKEN_MESSAGES.tokenUriFormat },
    ]);
    expect(tokenFormErrors('QRC721', 'base', { ...form, tokenUri: 'ipfs://abc/' })).toEqual([
      { name: 'tokenUri', reason: TOKEN_MESSAGES.tokenUriFormat },
    ]);
  });

  it('keeps the maximum supply at 0 (no limit) or at least the initial supply', () => {
    const flex = { ...qrc20Base, minter: HOLDER, remintable: true };
    expect(tokenFormErrors('QRC20', 'flex', { ...flex, maxSupply: 0 })).toEqual([]);
    expect(tokenFormErrors('QRC20', 'flex', { ...flex, maxSupply: 999 })).toEqual([
      { name: 'maxSupply', reason: TOKEN_MESSAGES.maxSupplyBelowInitial },
    ]);
    expect(tokenFormSchema('QRC20', 'flex').parse({ ...flex, maxSupply: '' }).maxSupply).toBe(0);
  });
});

describe('tier list building (spec §4)', () => {
  it('sorts by name case-insensitively and short-lists the new functions', () => {
    const list = buildTierList([
      { name: 'vari', functions: ['a', 'b', 'c', 'pause'] },
      { name: 'Base', functions: ['a', 'b'] },
      { name: 'Flex', functions: ['a', 'b', 'c'] },
    ]);
    expect(list.map((t) => [t.name, t.refererTier, t.shortListFunctions])).toEqual([
      ['Base', '', ['a', 'b']],
      ['Flex', 'Base', ['c']],
      ['vari', 'Flex', ['pause']],
    ]);
  });

  it('falls back to the full list when a tier adds nothing', () => {
    const list = buildTierList([
      { name: 'A', functions: ['x', 'y'] },
      { name: 'B', functions: ['x'] },
    ]);
    expect(list[1]!.shortListFunctions).toEqual(['x']);
  });
});

describe('credit amounts (spec §5)', () => {
  it('offers a tier only with the amounts the method needs', () => {
    expect(tierOffered({ deploymentCredits: 10, bytecodeCredits: null }, 'QUANT')).toBe(true);
    expect(tierOffered({ deploymentCredits: 10, bytecodeCredits: null }, 'META_MASK')).toBe(false);
    expect(tierOffered({ deploymentCredits: null, bytecodeCredits: 5 }, 'META_MASK')).toBe(false);
    expect(tierCreditAmount({ deploymentCredits: 10, bytecodeCredits: 5 }, 'QUANT')).toBe(10);
    expect(tierCreditAmount({ deploymentCredits: 10, bytecodeCredits: 5 }, 'META_MASK')).toBe(5);
  });
});

describe('requests', () => {
  it('upper-cases the token type and checks the page size', () => {
    expect(ZTiersQuery.parse({ networkId: '8d3c1f0e-7a1b-4c2d-9e3f-0a1b2c3d4e5f', tokenType: 'qrc20' }).tokenType).toBe(
      'QRC20',
    );
    expect(ZTokensRequest.safeParse({ size: 7 }).success).toBe(false);
    expect(ZTokensRequest.parse({})).toMatchObject({ page: 0, size: 10 });
    // The "All …" options send nothing or an empty value.
    expect(ZTokensRequest.parse({ status: '', tokenType: null, search: '' })).toMatchObject({
      status: undefined,
      tokenType: undefined,
      search: undefined,
    });
    expect(ZTokensRequest.safeParse({ status: 'LOST' }).success).toBe(false);
  });

  it('keeps the form fields beside the deployment target', () => {
    const parsed = ZCreateTokenRequest.parse({
      externalId: 'abc-1',
      networkId: '8d3c1f0e-7a1b-4c2d-9e3f-0a1b2c3d4e5f',
      tierId: '8d3c1f0e-7a1b-4c2d-9e3f-0a1b2c3d4e5f',
      tokenType: 'QRC20',
      deploymentType: 'QUANT',
      name: 'X',
    });
    expect(parsed.name).toBe('X');
    expect(ZCreateTokenRequest.safeParse({ externalId: 'bad id!' }).success).toBe(false);
  });

  it('reads a holder only when one is given', () => {
    expect(ZTokenDetailsQuery.parse({ holder: '' }).holder).toBeUndefined();
    expect(ZTokenDetailsQuery.parse({ holder: HOLDER }).holder).toBe(HOLDER);
    expect(ZTokenDetailsQuery.safeParse({ holder: '0x12' }).success).toBe(false);
  });
});
