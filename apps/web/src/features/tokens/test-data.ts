import type {
  TProductCatalogue,
  TProductPage,
  TTierCard,
  TToken,
  TTokenLocation,
  TTokensPage,
  TUser,
} from '@connect/shared';
import { TEST_USER } from '../../test/fixtures.ts';

export { json } from '../../test/fixtures.ts';

/** Fixtures for the token feature's component tests. */
export const USER: TUser = { ...TEST_USER, onfidoApplicantStatus: 'VERIFIED' };

export const LOCATION: TTokenLocation = {
  networkId: '10000000-0000-4000-8000-000000000001',
  technology: 'Ethereum',
  network: 'Ethereum Testnet (local)',
  code: 'ethereum-testnet',
  networkType: 'testnet',
  chainId: 31337,
  explorerUrl: null,
  isLocal: true,
};

export const tier = (overrides: Partial<TTierCard> = {}): TTierCard => ({
  id: '30000000-0000-4000-8000-000000000001',
  type: 'base',
  tokenType: 'QRC20',
  technology: 'Ethereum',
  network: LOCATION.network,
  networkId: LOCATION.networkId,
  networkType: 'testnet',
  name: 'Base',
  refererTier: '',
  description: 'A fixed supply issued to one holder at deployment.',
  functions: ['approve', 'balanceOf', 'transfer'],
  shortListFunctions: ['approve', 'balanceOf', 'transfer'],
  creditAmount: 10,
  deploymentCredits: 10,
  bytecodeCredits: 5,
  selected: false,
  attributes: ['name', 'unit', 'decimal', 'initialSupply', 'supplyHolderAddress'],
  ...overrides,
});

export const token = (overrides: Partial<TToken> = {}): TToken => ({
  id: '40000000-0000-4000-8000-000000000001',
  externalId: 'ext-1',
  tokenName: 'Loyalty Points',
  tokenUnit: 'LOYAL',
  decimalPlaces: 18,
  tokenSupply: '1000',
  maxSupply: null,
  remintable: false,
  supplyHolderAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  minter: null,
  ownerAddress: null,
  tokenUri: null,
  tokenType: 'QRC20',
  tierType: 'base',
  tierName: 'Base',
  tierId: '30000000-0000-4000-8000-000000000001',
  networkId: LOCATION.networkId,
  blockchain: 'Ethereum',
  technology: 'Ethereum',
  network: LOCATION.network,
  networkType: 'testnet',
  chainId: 31337,
  isLocal: true,
  deploymentType: 'QUANT',
  status: 'ACTIVE',
  smartContractAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  transactionId: '0x' + 'ab'.repeat(32),
  deployerAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  blockNumber: '1',
  creditsCharged: 10,
  failureReason: null,
  createdAt: '2026-11-22T10:00:00.000Z',
  deployedAt: '2026-11-22T10:00:05.000Z',
  ...overrides,
});

export const tokensPage = (content: TToken[], overrides: Partial<TTokensPage> = {}): TTokensPage => ({
  content,
  totalElements: content.length,
  totalPages: 1,
  number: 0,
  size: 10,
  quota: { deployed: content.length, allowed: 10 },
  blockchains: ['Ethereum', 'Polygon'],
  credits: 500,
  ...overrides,
});

/** The product catalogue's use cases as products.json lists them (with one product area beside them). */
export const CATALOGUE: TProductCatalogue = {
  products: [
    {
      name: 'tokens',
      area: 'product-area',
      title: 'Tokens',
      summary: 'Deploy QRC20 and QRC721 tokens.',
      icon: 'token',
      path: '/{product}-flows/token-flow',
      feature: null,
      tokenType: null,
      dashboardOrder: 3,
      hasPage: false,
    },
    {
      name: 'payments',
      area: 'token-use-case',
      title: 'Payments',
      summary: 'Catalogue summary of payments.',
      icon: 'payments',
      path: '/{product}-flows/token-flow/payments',
      feature: null,
      tokenType: 'QRC20',
      dashboardOrder: null,
      hasPage: true,
    },
    {
      name: 'sustainability',
      area: 'token-use-case',
      title: 'Sustainability',
      summary: 'Catalogue summary of sustainability.',
      icon: 'energy_savings_leaf',
      path: '/{product}-flows/token-flow/sustainability',
      feature: null,
      tokenType: 'QRC721',
      dashboardOrder: null,
      hasPage: true,
    },
  ],
};

export const PAYMENTS_PAGE: TProductPage = {
  name: 'payments',
  heading: 'Catalogue heading of payments',
  description: 'Catalogue description of payments.',
  tokenType: 'QRC20',
  points: ['First catalogue point.', 'Second catalogue point.'],
  how: 'Catalogue text on how to start.',
};
