// `npm run bench:tokens` — not a test. In one run, on a local anvil chain (automine):
//   1. a bare viem `deployContract` of a token's deployment data, sent from a funded key and
//      waited for with a 15 ms receipt poll (the best a script can do) — the baseline;
//   2. a platform deployment through the API: from POST /api/tokenise/v2/token (QUANT) to the
//      moment the server marks it ACTIVE (the token's deployedAt; the bench polls GET every
//      200 ms, the first time 200 ms after the POST, only to learn that it happened), the same contract;
//   3. 50 platform deployments sent at once, until all are ACTIVE (each polled every 2 s, as a
//      browser would): deployments/s, and how many failed (a nonce collision would fail one).
// Prints the medians and the ratio platform / bare (target ≤ 1.2 since issue 30; 1.5 before). The
// app runs in this process (`app.inject`, no sockets) on a fresh embedded database, with the real
// job queue and deployer.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { eq } from 'drizzle-orm';
import { createPublicClient, createWalletClient, defineChain, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { accountNetworks, networks } from '@connect/db';
import { deployData } from '@connect/contracts';
import { SECOND_WALLET_PRIVATE_KEY, startDevChain } from '@connect/devchain';
import type { TCreateTokenResponse, TTierCard, TTokenDetails } from '@connect/shared';
import { LedgerRepository } from '../apps/server/src/repositories/ledger.ts';
import { createTestApp, signInAs } from '../apps/server/test/helpers.ts';
import { PLENTY, setAllowances } from '../apps/server/test/plans.ts';
import { leftovers } from './leftovers.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? 50);
const WARM_UP = 3;
const HOLDER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

const left = await leftovers();
const chain = await startDevChain({ chainId: 31_337 });
const t = await createTestApp({
  NETWORK_RPC_ETHEREUM_TESTNET: chain.rpcUrl,
  NETWORK_CHAIN_ID_ETHEREUM_TESTNET: String(chain.chainId),
  // The default (the test helpers turn the per-node user cache off).
  USER_CACHE_MS: '1000',
});
left.app(t);
try {
  // A user with the testnet activated, no token allowance limit and plenty of credits.
  const user = await signInAs(t);
  const me = await t.app.inject({ method: 'GET', url: `/api/connect/user/${user.sub}`, headers: user.headers });
  const accountId = me.json<{ accountId: string }>().accountId;
  const [network] = await t.db.db.select().from(networks).where(eq(networks.code, 'ethereum-testnet'));
  await t.db.db.insert(accountNetworks).values({ accountId, networkId: network!.id });
  await t.app.inject({ method: 'POST', url: '/api/tokenise/tokens', headers: user.headers, payload: {} });
  await setAllowances(t.db.db, accountId, { tokens: PLENTY });
  await new LedgerRepository(t.db.db).grant(accountId, 'CREDIT', 1_000_000n, {
    reason: 'Bench credits',
    reference: `bench:${accountId}`,
  });
  const tiers = await t.app.inject({
    method: 'GET',
    url: `/api/tokenise/v2/orchestration/tiers?networkId=${network!.id}&tokenType=QRC20&deploymentType=QUANT`,
    headers: user.headers,
  });
  const base = tiers.json<{ tiers: TTierCard[] }>().tiers.find((tier) => tier.type === 'base')!;

  const form = (i: number) => ({
    externalId: randomUUID(),
    networkId: network!.id,
    tierId: base.id,
    tokenType: 'QRC20',
    deploymentType: 'QUANT',
    name: `Bench Token ${i}`,
    unit: i < 0 ? 'BTW' : `BT${i}`,
    decimal: 18,
    initialSupply: 1_000_000,
    supplyHolderAddress: HOLDER,
  });
  const create = async (i: number) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/tokenise/v2/token',
      headers: user.headers,
      payload: form(i),
    });
    if (res.statusCode !== 201) throw new Error(`create answered ${res.statusCode}: ${res.body}`);
    return res.json<TCreateTokenResponse>().token.id;
  };
  // Waits before each poll, the first included: a GET answered at once would run inside the
  // server's own deployment (same process, same event loop, same embedded database).
  const untilSettled = async (id: string, pollMs: number) => {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      const res = await t.app.inject({ method: 'GET', url: `/api/tokenise/token/${id}`, headers: user.headers });
      const token = res.json<TTokenDetails>();
      if (token.status !== 'PENDING') return token;
    }
  };

  // 1. Bare viem deployments of the same bytecode (another funded key, so nonces never mix).
  const chainDef = defineChain({
    id: chain.chainId,
    name: 'bench',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  });
  const wallet = createWalletClient({
    account: privateKeyToAccount(SECOND_WALLET_PRIVATE_KEY),
    chain: chainDef,
    transport: http(chain.rpcUrl),
  });
  const pub = createPublicClient({ chain: chainDef, transport: http(chain.rpcUrl), pollingInterval: 15 });
  const { getTier } = await import('@connect/contracts');
  const tier = getTier('QRC20', 'base');
  const bare: number[] = [];
  const platform: number[] = [];
  // Warm up both paths a few times (JIT, connection pools, the server's per-network hints).
  for (let i = 0; i < WARM_UP; i++) {
    const data: Hex = deployData('QRC20', 'base', {
      name: 'Warm',
      symbol: 'WRM',
      decimals: 18,
      initialSupply: 1n,
      supplyHolder: HOLDER,
    });
    await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ data }), pollingInterval: 15 });
    await untilSettled(await create(-1 - i), 200);
  }
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    const hash = await wallet.deployContract({
      abi: tier.abi,
      bytecode: tier.bytecode,
      args: [`Bench Token ${i}`, `BT${i}`, 18, 1_000_000n * 10n ** 18n, HOLDER],
    });
    const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 15 });
    if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error('bare deployment failed');
    bare.push(performance.now() - started);

    // Until the server marked it ACTIVE (its deployedAt): polling from this same process every
    // few milliseconds would compete with the server for the event loop and the database.
    const postedAt = Date.now();
    const token = await untilSettled(await create(i), 200);
    if (token.status !== 'ACTIVE') throw new Error(`platform deployment ended ${token.status}: ${token.failureReason}`);
    platform.push(new Date(token.deployedAt!).getTime() - postedAt);
  }
  const bareMedian = median(bare);
  const platformMedian = median(platform);
  console.log(`Deployment latency on a local chain (${ROUNDS} rounds, medians):`);
  console.log(`  bare viem deployContract + receipt     ${ms(bareMedian)}  (min ${ms(Math.min(...bare))})`);
  console.log(`  POST /v2/token (QUANT) until ACTIVE    ${ms(platformMedian)}  (min ${ms(Math.min(...platform))})`);
  console.log(`  ratio platform / bare                  ${(platformMedian / bareMedian).toFixed(2)}  (target ≤ 1.2)`);

  // 3. Concurrent platform deployments.
  const started = performance.now();
  const ids = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => create(1_000 + i)));
  const results = await Promise.all(ids.map((id) => untilSettled(id, 2_000)));
  const seconds = (performance.now() - started) / 1_000;
  const active = results.filter((r) => r.status === 'ACTIVE').length;
  const failed = results.filter((r) => r.status !== 'ACTIVE');
  const addresses = new Set(results.map((r) => r.smartContractAddress));
  console.log(`${CONCURRENT} concurrent platform deployments:`);
  console.log(`  ACTIVE ${active}/${CONCURRENT}, distinct contracts ${addresses.size}, failed ${failed.length}`);
  for (const f of failed) console.log(`    ${f.status}: ${f.failureReason}`);
  console.log(`  ${seconds.toFixed(2)} s in all — ${(CONCURRENT / seconds).toFixed(1)} deployments/s`);
  console.log(
    `Load average (1/5/15 min): ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} on ${os.cpus().length} CPUs`,
  );
  if (failed.length) process.exitCode = 1;
} finally {
  await t.close();
  await chain.stop();
  await left.tidy();
}
