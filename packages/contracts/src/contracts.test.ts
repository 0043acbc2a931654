import { existsSync } from 'node:fs';
import {
  BaseError,
  createPublicClient,
  decodeErrorResult,
  createWalletClient,
  defineChain,
  http,
  type Abi,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEPLOYER_PRIVATE_KEY,
  SECOND_WALLET_PRIVATE_KEY,
  TEST_WALLET_PRIVATE_KEY,
  startDevChain,
  type DevChain,
} from '@connect/devchain';
// The rules the portal applies to these contracts' tiers and URIs live in the shared package.
import { buildTierList, isValidBaseTokenUri as isValidBaseUri } from '@connect/shared';
import {
  ARTIFACTS_FILE,
  constructorArgs,
  deployData,
  getQntContract,
  getTier,
  listTiers,
  loadArtifactsFile,
  matchesDeployedCode,
  qntDeployData,
  type TierType,
  type TokenParams,
  type TokenType,
} from './index.ts';

const deployer = privateKeyToAccount(DEPLOYER_PRIVATE_KEY);
const alice = privateKeyToAccount(TEST_WALLET_PRIVATE_KEY);
const bob = privateKeyToAccount(SECOND_WALLET_PRIVATE_KEY);

let chain: DevChain;
let pub: PublicClient;
let chainDef: Chain;

beforeAll(async () => {
  loadArtifactsFile(); // compiles on a clean clone (cached afterwards)
  chain = await startDevChain({ chainId: 31_990 });
  chainDef = defineChain({
    id: chain.chainId,
    name: 'devchain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  });
  pub = createPublicClient({ chain: chainDef, transport: http(chain.rpcUrl) });
}, 180_000);
afterAll(async () => {
  await chain?.stop();
});

const walletOf = (account: Account) => createWalletClient({ account, chain: chainDef, transport: http(chain.rpcUrl) });

type Token = { address: Address; abi: Abi; tokenType: TokenType; tier: TierType };

async function deploy(tokenType: TokenType, tier: TierType, params: TokenParams): Promise<Token> {
  const hash = await walletOf(deployer).sendTransaction({
    account: deployer,
    chain: chainDef,
    data: deployData(tokenType, tier, params),
  });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return { address: receipt.contractAddress!, abi: getTier(tokenType, tier).abi, tokenType, tier };
}

const read = (token: Pick<Token, 'address' | 'abi'>, functionName: string, args: unknown[] = []) =>
  pub.readContract({ address: token.address, abi: token.abi, functionName, args });

async function write(
  token: Pick<Token, 'address' | 'abi'>,
  account: Account,
  functionName: string,
  args: unknown[] = [],
) {
  const hash = await walletOf(account).writeContract({
    account,
    chain: chainDef,
    address: token.address,
    abi: token.abi,
    functionName,
    args,
  });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
}

/** The call reverts with the named custom error (decoded from the ABI). */
const reverts = (token: Token, account: Account, functionName: string, args: unknown[], error: string) =>
  expect(pub.simulateContract({ account, address: token.address, abi: token.abi, functionName, args })).rejects.toThrow(
    new RegExp(`\\b${error}\\b`),
  );

/** Deploying reverts with the named custom error (decoded from the tier's ABI). */
async function deployReverts(tokenType: TokenType, tier: TierType, params: TokenParams, error: string) {
  const failure = await pub
    .call({ account: deployer.address, data: deployData(tokenType, tier, params) })
    .then(() => undefined)
    .catch((e: unknown) => e as BaseError);
  expect(failure).toBeInstanceOf(BaseError);
  const raw = failure!.walk((e) => typeof (e as { data?: unknown }).data === 'string') as { data?: Hex } | null;
  expect(raw?.data).toMatch(/^0x[0-9a-f]{8}/);
  expect(decodeErrorResult({ abi: getTier(tokenType, tier).abi, data: raw!.data! }).errorName).toBe(error);
}

const units = (n: number, decimals = 18) => BigInt(n) * 10n ** BigInt(decimals);
const erc20 = (over: Partial<TokenParams> = {}): TokenParams => ({
  name: 'Test Token',
  symbol: 'TST',
  decimals: 18,
  initialSupply: units(100),
  supplyHolder: alice.address,
  minter: alice.address,
  owner: bob.address,
  ...over,
});
const erc721 = (over: Partial<TokenParams> = {}): TokenParams => ({
  name: 'Test Collectible',
  symbol: 'TCL',
  baseUri: 'https://meta.example/t/',
  initialSupply: 3n,
  supplyHolder: alice.address,
  minter: alice.address,
  owner: bob.address,
  ...over,
});

describe('compiled artefacts and tiers', () => {
  it('compiles the six tiers and QNT with ABI and bytecode into the cache', () => {
    const file = loadArtifactsFile();
    expect(Object.keys(file.contracts).sort()).toEqual([
      'QNT',
      'QRC20Base',
      'QRC20Flex',
      'QRC20Vari',
      'QRC721Base',
      'QRC721Flex',
      'QRC721Vari',
    ]);
    expect(file.settings.evmVersion).toBe('cancun');
    expect(file.solcVersion).toMatch(/^0\.8\./);
    expect(file.openzeppelinVersion).toMatch(/^5\./);
    for (const c of Object.values(file.contracts)) expect(c.bytecode.length).toBeGreaterThan(1_000);
    expect(existsSync(ARTIFACTS_FILE)).toBe(true);
    // Second load: the cache answers (same key, no recompilation).
    const started = Date.now();
    expect(loadArtifactsFile().key).toBe(file.key);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("lists each tier's functions from its ABI", () => {
    expect(getTier('QRC20', 'base').functions).toEqual([
      'allowance',
      'approve',
      'balanceOf',
      'decimals',
      'name',
      'symbol',
      'totalSupply',
      'transfer',
      'transferFrom',
    ]);
    expect(getTier('QRC721', 'base').functions).toEqual([
      'approve',
      'balanceOf',
      'baseURI',
      'getApproved',
      'isApprovedForAll',
      'name',
      'ownerOf',
      'safeTransferFrom',
      'setApprovalForAll',
      'supportsInterface',
      'symbol',
      'tokenURI',
      'totalSupply',
      'transferFrom',
    ]);
    for (const tokenType of ['QRC20', 'QRC721'] as const) {
      const [base, flex, vari] = listTiers(tokenType);
      expect(flex!.functions).toEqual(expect.arrayContaining(base!.functions));
      expect(vari!.functions).toEqual(expect.arrayContaining(flex!.functions));
    }
  });

  it('builds the tier cards by the rule of spec §4', () => {
    for (const tokenType of ['QRC20', 'QRC721'] as const) {
      const cards = buildTierList(listTiers(tokenType).reverse());
      expect(cards.map((c) => [c.name, c.refererTier])).toEqual([
        ['Base', ''],
        ['Flex', 'Base'],
        ['Vari', 'Flex'],
      ]);
      expect(cards[0]!.shortListFunctions).toEqual(cards[0]!.functions);
    }
    const qrc20 = buildTierList(listTiers('QRC20'));
    expect(qrc20[1]!.shortListFunctions).toEqual([
      'burn',
      'burnFrom',
      'maxSupply',
      'mint',
      'mintableSupply',
      'minter',
      'remintable',
      'totalMinted',
      'transferMinter',
    ]);
    expect(qrc20[2]!.shortListFunctions).toEqual([
      'owner',
      'pause',
      'paused',
      'renounceOwnership',
      'setMinter',
      'transferOwnership',
      'unpause',
    ]);
    const qrc721 = buildTierList(listTiers('QRC721'));
    expect(qrc721[1]!.shortListFunctions).toEqual([
      'burn',
      'maxSupply',
      'mint',
      'mintableSupply',
      'minter',
      'remintable',
      'totalMinted',
      'transferMinter',
    ]);
    expect(qrc721[2]!.shortListFunctions).toEqual([
      'owner',
      'pause',
      'paused',
      'renounceOwnership',
      'setBaseURI',
      'setMinter',
      'transferOwnership',
      'unpause',
    ]);
  });

  it('sorts case-insensitively and falls back to the full list when a tier adds nothing', () => {
    const cards = buildTierList([
      { name: 'vari', functions: ['a', 'b'] },
      { name: 'Base', functions: ['a', 'b'] },
      { name: 'flex', functions: ['a', 'b', 'c'] },
    ]);
    expect(cards.map((c) => [c.name, c.refererTier, c.shortListFunctions])).toEqual([
      ['Base', '', ['a', 'b']],
      ['flex', 'Base', ['c']],
      ['vari', 'flex', ['a', 'b']],
    ]);
  });

  it('checks the base URI rule and the parameters each tier needs', () => {
    expect(isValidBaseUri('https://meta.example/t/')).toBe(true);
    expect(isValidBaseUri('HTTP://x/')).toBe(true);
    expect(isValidBaseUri('https://meta.example/t')).toBe(false);
    expect(isValidBaseUri('ipfs://cid/')).toBe(false);
    expect(isValidBaseUri('')).toBe(false);
    expect(() => constructorArgs('QRC20', 'flex', { ...erc20(), minter: undefined })).toThrow('QRC20Flex needs minter');
    expect(() => constructorArgs('QRC721', 'base', { ...erc721(), baseUri: undefined })).toThrow(
      'QRC721Base needs baseUri',
    );
    expect(constructorArgs('QRC20', 'vari', erc20({ maxSupply: 5n, remintable: true }))).toEqual([
      'Test Token',
      'TST',
      18,
      units(100),
      alice.address,
      alice.address,
      5n,
      true,
      bob.address,
    ]);
  });
});

describe('QRC20 on a local chain', () => {
  it('base: fixed supply to the holder, transfers, no minting; the deployed code is recognised', async () => {
    const token = await deploy('QRC20', 'base', erc20({ decimals: 6, initialSupply: units(1_000, 6) }));
    expect(await read(token, 'name')).toBe('Test Token');
    expect(await read(token, 'symbol')).toBe('TST');
    expect(await read(token, 'decimals')).toBe(6);
    expect(await read(token, 'totalSupply')).toBe(units(1_000, 6));
    expect(await read(token, 'balanceOf', [alice.address])).toBe(units(1_000, 6));
    await write(token, alice, 'transfer', [bob.address, units(250, 6)]);
    expect(await read(token, 'balanceOf', [bob.address])).toBe(units(250, 6));
    await reverts(token, bob, 'transfer', [alice.address, units(251, 6)], 'ERC20InsufficientBalance');
    await write(token, bob, 'approve', [deployer.address, units(10, 6)]);
    await write(token, deployer, 'transferFrom', [bob.address, deployer.address, units(10, 6)]);
    expect(await read(token, 'balanceOf', [deployer.address])).toBe(units(10, 6));

    const code = (await pub.getCode({ address: token.address })) as Hex;
    expect(matchesDeployedCode('QRC20', 'base', code)).toBe(true);
    expect(matchesDeployedCode('QRC20', 'flex', code)).toBe(false);
    expect(matchesDeployedCode('QRC721', 'base', code)).toBe(false);
    await deployReverts('QRC20', 'base', erc20({ decimals: 19 }), 'QRC20InvalidDecimals');
  });

  it('flex: only the minter mints, up to the max supply; burnt tokens are not reminted without the flag', async () => {
    const token = await deploy('QRC20', 'flex', erc20({ initialSupply: units(100), maxSupply: units(1_000) }));
    expect(await read(token, 'minter')).toBe(alice.address);
    expect(await read(token, 'maxSupply')).toBe(units(1_000));
    expect(await read(token, 'remintable')).toBe(false);
    expect(await read(token, 'mintableSupply')).toBe(units(900));

    await reverts(token, deployer, 'mint', [deployer.address, 1n], 'QRC20UnauthorizedMinter');
    await reverts(token, bob, 'mint', [bob.address, 1n], 'QRC20UnauthorizedMinter');
    await write(token, alice, 'mint', [bob.address, units(900)]);
    expect(await read(token, 'balanceOf', [bob.address])).toBe(units(900));
    expect(await read(token, 'totalSupply')).toBe(units(1_000));
    await reverts(token, alice, 'mint', [bob.address, 1n], 'QRC20MaxSupplyExceeded');

    await write(token, bob, 'burn', [units(50)]);
    expect(await read(token, 'totalSupply')).toBe(units(950));
    expect(await read(token, 'totalMinted')).toBe(units(1_000));
    expect(await read(token, 'mintableSupply')).toBe(0n);
    await reverts(token, alice, 'mint', [bob.address, 1n], 'QRC20MaxSupplyExceeded');

    // burnFrom needs an allowance.
    await reverts(token, deployer, 'burnFrom', [bob.address, 1n], 'ERC20InsufficientAllowance');
    await write(token, bob, 'approve', [deployer.address, units(5)]);
    await write(token, deployer, 'burnFrom', [bob.address, units(5)]);
    expect(await read(token, 'balanceOf', [bob.address])).toBe(units(845));

    // The minter hands the role over.
    await write(token, alice, 'transferMinter', [bob.address]);
    expect(await read(token, 'minter')).toBe(bob.address);
    await reverts(token, alice, 'transferMinter', [alice.address], 'QRC20UnauthorizedMinter');

    const code = (await pub.getCode({ address: token.address })) as Hex;
    expect(matchesDeployedCode('QRC20', 'flex', code)).toBe(true);
    expect(matchesDeployedCode('QRC20', 'vari', code)).toBe(false);
  });

  it('flex: with remint, burnt tokens free room under the max supply; 0 means no limit', async () => {
    const token = await deploy(
      'QRC20',
      'flex',
      erc20({ initialSupply: units(10), maxSupply: units(20), remintable: true }),
    );
    await write(token, alice, 'mint', [alice.address, units(10)]);
    await reverts(token, alice, 'mint', [alice.address, 1n], 'QRC20MaxSupplyExceeded');
    await write(token, alice, 'burn', [units(4)]);
    expect(await read(token, 'mintableSupply')).toBe(units(4));
    await write(token, alice, 'mint', [bob.address, units(4)]);
    await reverts(token, alice, 'mint', [bob.address, 1n], 'QRC20MaxSupplyExceeded');
    expect(await read(token, 'totalMinted')).toBe(units(24));

    const unlimited = await deploy('QRC20', 'flex', erc20({ maxSupply: 0n }));
    await write(unlimited, alice, 'mint', [bob.address, units(1_000_000_000)]);
    expect(await read(unlimited, 'balanceOf', [bob.address])).toBe(units(1_000_000_000));

    await deployReverts(
      'QRC20',
      'flex',
      erc20({ initialSupply: units(30), maxSupply: units(20) }),
      'QRC20MaxSupplyExceeded',
    );
    await deployReverts(
      'QRC20',
      'flex',
      erc20({ minter: '0x0000000000000000000000000000000000000000' }),
      'QRC20InvalidMinter',
    );
  });

  it('vari: only the owner pauses, appoints the minter and hands over ownership', async () => {
    const token = await deploy('QRC20', 'vari', erc20({ maxSupply: units(1_000) }));
    expect(await read(token, 'owner')).toBe(bob.address);
    await reverts(token, alice, 'pause', [], 'OwnableUnauthorizedAccount');
    await reverts(token, alice, 'setMinter', [alice.address], 'OwnableUnauthorizedAccount');

    await write(token, bob, 'pause');
    expect(await read(token, 'paused')).toBe(true);
    await reverts(token, alice, 'transfer', [bob.address, 1n], 'EnforcedPause');
    await reverts(token, alice, 'mint', [bob.address, 1n], 'EnforcedPause');
    await reverts(token, alice, 'burn', [1n], 'EnforcedPause');
    await reverts(token, alice, 'unpause', [], 'OwnableUnauthorizedAccount');
    await write(token, bob, 'unpause');
    await write(token, alice, 'transfer', [bob.address, units(1)]);

    await write(token, bob, 'setMinter', [deployer.address]);
    await reverts(token, alice, 'mint', [alice.address, 1n], 'QRC20UnauthorizedMinter');
    await write(token, deployer, 'mint', [alice.address, units(5)]);
    await reverts(token, deployer, 'mint', [alice.address, units(900)], 'QRC20MaxSupplyExceeded');

    await write(token, bob, 'transferOwnership', [alice.address]);
    expect(await read(token, 'owner')).toBe(alice.address);
    await reverts(token, bob, 'pause', [], 'OwnableUnauthorizedAccount');
    await write(token, alice, 'renounceOwnership');
    expect(await read(token, 'owner')).toBe('0x0000000000000000000000000000000000000000');

    const code = (await pub.getCode({ address: token.address })) as Hex;
    expect(matchesDeployedCode('QRC20', 'vari', code)).toBe(true);
  });
});

describe('QNT on a local chain', () => {
  it('mints the same amount to each holder at deployment: Quant, QNT, 18 decimals; transfers', async () => {
    const hash = await walletOf(deployer).sendTransaction({
      account: deployer,
      chain: chainDef,
      data: qntDeployData([alice.address, bob.address], units(1_000_000)),
    });
    const receipt = await pub.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const qnt = { address: receipt.contractAddress!, abi: getQntContract().abi };
    expect(await read(qnt, 'name')).toBe('Quant');
    expect(await read(qnt, 'symbol')).toBe('QNT');
    expect(await read(qnt, 'decimals')).toBe(18);
    expect(await read(qnt, 'totalSupply')).toBe(units(2_000_000));
    expect(await read(qnt, 'balanceOf', [alice.address])).toBe(units(1_000_000));
    expect(await read(qnt, 'balanceOf', [deployer.address])).toBe(0n);
    await write(qnt, bob, 'transfer', [deployer.address, units(5)]);
    expect(await read(qnt, 'balanceOf', [deployer.address])).toBe(units(5));
    expect(getQntContract().compiled.deployedBytecode).toBe(await pub.getCode({ address: qnt.address }));
  });
});

describe('QRC721 on a local chain', () => {
  it('base: initial tokens to the holder, token URIs under the base URI, transfers', async () => {
    const token = await deploy('QRC721', 'base', erc721());
    expect(await read(token, 'name')).toBe('Test Collectible');
    expect(await read(token, 'totalSupply')).toBe(3n);
    expect(await read(token, 'balanceOf', [alice.address])).toBe(3n);
    for (const id of [0n, 1n, 2n]) expect(await read(token, 'ownerOf', [id])).toBe(alice.address);
    expect(await read(token, 'tokenURI', [2n])).toBe('https://meta.example/t/2');
    expect(await read(token, 'baseURI')).toBe('https://meta.example/t/');
    await expect(read(token, 'ownerOf', [3n])).rejects.toThrow(/ERC721NonexistentToken/);
    await write(token, alice, 'transferFrom', [alice.address, bob.address, 1n]);
    expect(await read(token, 'ownerOf', [1n])).toBe(bob.address);
    await reverts(token, alice, 'transferFrom', [bob.address, alice.address, 1n], 'ERC721InsufficientApproval');
    const code = (await pub.getCode({ address: token.address })) as Hex;
    expect(matchesDeployedCode('QRC721', 'base', code)).toBe(true);
    expect(matchesDeployedCode('QRC721', 'flex', code)).toBe(false);
  });

  it('the base URI must start with http and end with "/"; a supply of 1 000 000 000 deploys at once', async () => {
    for (const baseUri of ['ftp://meta.example/', 'https://meta.example/t', 'ipfs://cid/', '']) {
      await deployReverts('QRC721', 'base', erc721({ baseUri }), 'QRC721InvalidBaseURI');
    }
    // The largest supply the platform allows fits one deployment.
    const big = await deploy(
      'QRC721',
      'flex',
      erc721({ initialSupply: 1_000_000_000n, baseUri: 'HTTP://meta.example/' }),
    );
    expect(await read(big, 'totalSupply')).toBe(1_000_000_000n);
    expect(await read(big, 'balanceOf', [alice.address])).toBe(1_000_000_000n);
    expect(await read(big, 'ownerOf', [999_999_999n])).toBe(alice.address);
    await expect(read(big, 'ownerOf', [1_000_000_000n])).rejects.toThrow(/ERC721NonexistentToken/);
    await write(big, alice, 'transferFrom', [alice.address, bob.address, 123_456_789n]);
    expect(await read(big, 'ownerOf', [123_456_789n])).toBe(bob.address);
    expect(await read(big, 'ownerOf', [123_456_790n])).toBe(alice.address);
    await write(big, alice, 'mint', [bob.address]);
    expect(await read(big, 'ownerOf', [1_000_000_000n])).toBe(bob.address);
  });

  it('flex: only the minter mints the next ids up to the max supply; owners burn', async () => {
    const token = await deploy('QRC721', 'flex', erc721({ initialSupply: 3n, maxSupply: 5n }));
    await reverts(token, bob, 'mint', [bob.address], 'QRC721UnauthorizedMinter');
    await write(token, alice, 'mint', [bob.address]);
    expect(await read(token, 'ownerOf', [3n])).toBe(bob.address);
    await write(token, alice, 'mint', [bob.address]);
    expect(await read(token, 'ownerOf', [4n])).toBe(bob.address);
    expect(await read(token, 'totalSupply')).toBe(5n);
    await reverts(token, alice, 'mint', [bob.address], 'QRC721MaxSupplyExceeded');

    await reverts(token, alice, 'burn', [4n], 'ERC721InsufficientApproval');
    await write(token, bob, 'burn', [4n]);
    await write(token, alice, 'burn', [0n]); // an id from the initial batch
    expect(await read(token, 'totalSupply')).toBe(3n);
    expect(await read(token, 'totalMinted')).toBe(5n);
    await reverts(token, alice, 'mint', [bob.address], 'QRC721MaxSupplyExceeded');

    const remint = await deploy('QRC721', 'flex', erc721({ initialSupply: 2n, maxSupply: 2n, remintable: true }));
    await reverts(remint, alice, 'mint', [bob.address], 'QRC721MaxSupplyExceeded');
    await write(remint, alice, 'burn', [1n]);
    await write(remint, alice, 'mint', [bob.address]);
    expect(await read(remint, 'ownerOf', [2n])).toBe(bob.address);
    await expect(read(remint, 'ownerOf', [1n])).rejects.toThrow(/ERC721NonexistentToken/);
    await reverts(remint, alice, 'mint', [bob.address], 'QRC721MaxSupplyExceeded');

    await write(token, alice, 'transferMinter', [bob.address]);
    expect(await read(token, 'minter')).toBe(bob.address);
    const code = (await pub.getCode({ address: token.address })) as Hex;
    expect(matchesDeployedCode('QRC721', 'flex', code)).toBe(true);
  });

  it('vari: only the owner pauses, appoints the minter and changes the base URI (same rule)', async () => {
    const token = await deploy('QRC721', 'vari', erc721({ maxSupply: 0n }));
    await reverts(token, alice, 'setBaseURI', ['https://other.example/'], 'OwnableUnauthorizedAccount');
    await reverts(token, bob, 'setBaseURI', ['https://other.example'], 'QRC721InvalidBaseURI');
    await write(token, bob, 'setBaseURI', ['https://other.example/nft/']);
    expect(await read(token, 'tokenURI', [0n])).toBe('https://other.example/nft/0');

    await reverts(token, alice, 'pause', [], 'OwnableUnauthorizedAccount');
    await write(token, bob, 'pause');
    await reverts(token, alice, 'transferFrom', [alice.address, bob.address, 0n], 'EnforcedPause');
    await reverts(token, alice, 'mint', [alice.address], 'EnforcedPause');
    await write(token, bob, 'unpause');
    await write(token, alice, 'mint', [alice.address]);
    expect(await read(token, 'totalSupply')).toBe(4n);

    await reverts(token, alice, 'setMinter', [alice.address], 'OwnableUnauthorizedAccount');
    await write(token, bob, 'setMinter', [bob.address]);
    await reverts(token, alice, 'mint', [alice.address], 'QRC721UnauthorizedMinter');
    await write(token, bob, 'mint', [alice.address]);
    expect(await read(token, 'ownerOf', [4n])).toBe(alice.address);

    const code = (await pub.getCode({ address: token.address })) as Hex;
    expect(matchesDeployedCode('QRC721', 'vari', code)).toBe(true);
    expect(matchesDeployedCode('QRC20', 'vari', code)).toBe(false);
  });
});
