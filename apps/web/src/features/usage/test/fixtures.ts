import type { TBalanceHistory, TSpendingCaps, TUsageBucket, TUsageReport } from '@connect/shared';

export { createFetchMock, json, TEST_USER as USER } from '../../../test/fixtures.ts';

export const PAYMENTS = { id: '33333333-3333-4333-8333-333333333333', name: 'Payments API' };
export const INDEXER = { id: '77777777-7777-4777-8777-777777777777', name: 'Indexer' };
export const TESTNET = { id: '11111111-1111-4111-8111-111111111111', name: 'Ethereum Testnet' };

/** "Now" in the page's tests: Monday 23.11.2026, 10:30 UTC. The last 7 days are 17.11 to 23.11. */
export const NOW = '2026-11-23T10:30:00.000Z';

const bucket = (overrides: Partial<TUsageBucket> & Pick<TUsageBucket, 'start'>): TUsageBucket => ({
  applicationId: PAYMENTS.id,
  networkId: TESTNET.id,
  method: 'eth_blockNumber',
  methodClass: 'read',
  calls: 0,
  credits: 0,
  ...overrides,
});

/** The last 7 days by day: three methods of two applications, and one token deployment. */
export const BUCKETS: TUsageBucket[] = [
  bucket({
    start: '2026-11-21T00:00:00.000Z',
    applicationId: null,
    method: 'deployment',
    methodClass: 'deployment',
    calls: 1,
    credits: 50,
  }),
  bucket({ start: '2026-11-22T00:00:00.000Z', calls: 12_000, credits: 1.2 }),
  bucket({ start: '2026-11-23T00:00:00.000Z', method: 'eth_getLogs', methodClass: 'log', calls: 400, credits: 0.2 }),
  bucket({
    start: '2026-11-23T00:00:00.000Z',
    applicationId: INDEXER.id,
    method: 'eth_call',
    calls: 3_000,
    credits: 0.3,
  }),
];

export const REPORT: TUsageReport = {
  from: '2026-11-17',
  to: '2026-11-23',
  granularity: 'day',
  buckets: BUCKETS,
  applications: [PAYMENTS, INDEXER],
  networks: [TESTNET],
  totals: { calls: 15_401, credits: 51.7 },
  forecast: {
    month: '2026-11-01',
    usedCredits: 120.5,
    predictedCredits: 160.67,
    predictedCostUsdCents: null,
    creditPriceUsdCents: null,
    creditsRunOutOn: null,
  },
};

export const BALANCE: TBalanceHistory = {
  from: '2026-11-17',
  to: '2026-11-23',
  opening: 5_000,
  points: [{ at: '2026-11-21T09:00:00.000Z', balance: 4_950, amount: -50, reason: 'Token deployment' }],
  balance: 4_950,
  available: 4_950,
  floor: 0,
};

export const CAPS: TSpendingCaps = {
  month: '2026-11-01',
  applications: [
    { applicationId: PAYMENTS.id, name: PAYMENTS.name, monthlyCapCredits: 100, usedCredits: 100.5, state: 'REACHED' },
    { applicationId: INDEXER.id, name: INDEXER.name, monthlyCapCredits: null, usedCredits: 20, state: 'OK' },
  ],
};
