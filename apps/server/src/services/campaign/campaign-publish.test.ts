import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { encodeFunctionData, erc20Abi, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '@connect/devchain';
import { auditLog, rewardClaims, rewardProgress, type RewardClaimStatus } from '@connect/db';
import { qntToWei, weiToQnt, ZCampaignDetail, type TTaskRequest } from '@connect/shared';
import { startTestChain, type TestChain } from '../../../test/chains.ts';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { ensureLocalQntToken } from '../../adapters/chains/qnt-token.ts';
import { rpcCall } from '../../adapters/chains/rpc.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { promisedWei } from './campaign-repository.ts';
import { utcDay } from './campaigns.ts';
import { insertCampaign, newRewardsCustomer } from './test-support.ts';
import { fundLocalTreasury, requireTreasury, treasuryBalanceWei } from './treasury.ts';

type Session = { headers: { authorization: string } };
const BASE = '/api/campaign/management/campaigns';
const QNT = 10n ** 18n;
const day = (offset: number) => utcDay(new Date(Date.now() + offset * 86_400_000));

/**
 * Publishing (issue 34 §1): the treasury must hold the campaign's budget (its published tasks'
 * value × participants) beside what is already promised. A local chain with the QNT token, and a
 * treasury key of this test's own that anvil's first account sends QNT to.
 */
describe('publishing a campaign needs the treasury’s budget', () => {
  let chain: TestChain;
  let t: TestContext;
  let admin: Session & { email: string };
  let token: Hex;
  beforeAll(async () => {
    chain = await startTestChain();
    token = await ensureLocalQntToken(chain.rpcUrl);
    const key = generatePrivateKey();
    t = await createTestApp({
      NETWORK_RPC_ETHEREUM_TESTNET: chain.rpcUrl,
      NETWORK_CHAIN_ID_ETHEREUM_TESTNET: String(chain.chainId),
      QNT_TOKEN_ADDRESS: token,
      REWARD_TREASURY_PRIVATE_KEY: key,
    });
    admin = await signInAs(t, { role: 'QUANT_ADMIN' });
    await sendQnt(privateKeyToAddress(key), 1_000n * QNT);
    // Whatever a start does to a treasury on a local chain is done before the balances are read.
    await fundLocalTreasury(await requireTreasury(t.app.deps), t.app.log);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await chain?.stop();
  });

  async function sendQnt(to: Hex, amount: bigint) {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] });
    const hash = await rpcCall<Hex>(chain.rpcUrl, 'eth_sendTransaction', [
      { from: DEV_ACCOUNTS[0]!.address, to: token, data },
    ]);
    while (!(await rpcCall(chain.rpcUrl, 'eth_getTransactionReceipt', [hash]))) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  const call = (method: 'POST' | 'PUT' | 'GET', url: string, body?: unknown) =>
    t.app.inject({
      method,
      url: `${BASE}${url}`,
      headers: admin.headers,
      ...(body !== undefined ? { payload: body as object } : {}),
    });
  /** A draft of `participants` places with one published task worth `value` QNT (and a draft task worth a lot). */
  const draft = async (value: string, participants: number, startDate = day(5)) => {
    const res = await call('POST', '', {
      name: `Budget ${randomUUID().slice(0, 8)}`,
      visibleName: 'Budget',
      startDate,
      endDate: day(35),
      participants,
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = ZCampaignDetail.parse(res.json()).id;
    const task = (overrides: Partial<TTaskRequest>) => ({
      name: 'Register an application',
      activityType: 'APPLICATION_REGISTERED',
      value,
      status: 'PUBLISHED',
      ...overrides,
    });
    const published = await call('POST', `/${id}/tasks`, task({}));
    expect(published.statusCode, published.body).toBe(201);
    expect((await call('POST', `/${id}/tasks`, task({ value: '1000000', status: 'DRAFT' }))).statusCode).toBe(201);
    return { id, taskId: published.json().taskId as string };
  };
  const publish = (id: string) => call('PUT', `/${id}/update-status`, { status: 'PUBLISHED' });
  /** What the treasury can still promise, in wei. */
  const headroom = async () => (await treasuryBalanceWei(t.app.deps)) - (await promisedWei(t.db.db));

  it('publishes a campaign the treasury covers to the wei; one wei more is TREASURY_SHORT', async () => {
    const room = await headroom();
    expect(room).toBeGreaterThanOrEqual(1_000n * QNT);
    // Three places of a third of the room each, and one wei more for each of them.
    const third = room / 3n;
    const campaign = await draft(weiToQnt(third + 1n), 3);
    const short = await publish(campaign.id);
    expect(short.statusCode, short.body).toBe(409);
    expect(short.json()).toMatchObject({ code: 'TREASURY_SHORT' });
    expect(short.json().detail).toContain(`${weiToQnt(third + 1n)} QNT × 3 participants`);

    const fits = await call('PUT', `/${campaign.id}/tasks/${campaign.taskId}`, {
      name: 'Register an application',
      activityType: 'APPLICATION_REGISTERED',
      value: weiToQnt(third),
      status: 'PUBLISHED',
    });
    expect(fits.statusCode, fits.body).toBe(200);
    const promisedBefore = await promisedWei(t.db.db);
    const res = await publish(campaign.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(ZCampaignDetail.parse(res.json())).toMatchObject({ status: 'PUBLISHED', qntValue: weiToQnt(third) });
    // Its whole budget is now promised: the draft task worth a million is not part of it.
    expect(await promisedWei(t.db.db)).toBe(promisedBefore + third * 3n);
    const [entry] = await t.db.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.recordId, campaign.id), eq(auditLog.action, 'CAMPAIGN_STATUS_CHANGED')));
    expect(entry).toMatchObject({
      actorEmail: admin.email,
      before: { status: 'DRAFT' },
      after: {
        status: 'PUBLISHED',
        budget: weiToQnt(third * 3n),
        promised: weiToQnt(promisedBefore),
        treasury: weiToQnt(await treasuryBalanceWei(t.app.deps)),
      },
    });

    // Back to draft before anyone opted in gives the budget back.
    expect((await call('PUT', `/${campaign.id}/update-status`, { status: 'DRAFT' })).statusCode).toBe(200);
    expect(await promisedWei(t.db.db)).toBe(promisedBefore);
  });

  it('runs a campaign published on its start date at once (the status job’s move, audited by system)', async () => {
    const campaign = await draft('0.001', 2, day(0));
    const res = await publish(campaign.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(ZCampaignDetail.parse(res.json()).status).toBe('ACTIVE');
    const moves = await t.db.db
      .select({ actorId: auditLog.actorId, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.recordId, campaign.id), eq(auditLog.action, 'CAMPAIGN_STATUS_CHANGED')));
    expect(moves).toEqual([
      expect.objectContaining({ after: expect.objectContaining({ status: 'PUBLISHED' }) }),
      { actorId: null, after: { status: 'ACTIVE' } },
    ]);
    // Ended early so that it promises nothing to the other tests.
    expect((await call('PUT', `/${campaign.id}/update-status`, { status: 'COMPLETED' })).statusCode).toBe(200);
  });

  it('counts as promised: what running campaigns may still grant, unclaimed rewards and unpaid claims', async () => {
    const before = await promisedWei(t.db.db);
    const customer = await newRewardsCustomer(t);
    const other = await newRewardsCustomer(t);
    const running = await insertCampaign(
      t,
      [
        { activityType: 'APPLICATION_REGISTERED', value: '2' },
        { activityType: 'GATEWAY_CALLS', threshold: 10, value: '3' },
        { activityType: 'INVOICE_PAID', value: '7', status: 'DRAFT' },
      ],
      { status: 'ACTIVE', participants: 4, optedIn: 2 },
    );
    // Not promised: a completed campaign's rest, a draft's budget.
    await insertCampaign(t, [{ activityType: 'INVOICE_PAID', value: '50' }], { status: 'COMPLETED' });
    await insertCampaign(t, [{ activityType: 'INVOICE_PAID', value: '50' }], { status: 'DRAFT' });
    const [registered, calls] = running.tasks;
    // Both did the first task (granted 2 each); one is half-way through the second.
    await t.db.db.insert(rewardProgress).values([
      {
        taskId: registered!.id,
        accountId: customer.accountId,
        campaignId: running.campaign.id,
        count: 1,
        doneAt: new Date(),
      },
      {
        taskId: registered!.id,
        accountId: other.accountId,
        campaignId: running.campaign.id,
        count: 1,
        doneAt: new Date(),
      },
      { taskId: calls!.id, accountId: customer.accountId, campaignId: running.campaign.id, count: 5 },
    ]);
    // Budget 4 × 5 = 20, granted 4: 16 still promised by the campaign.
    expect(await promisedWei(t.db.db)).toBe(before + 16n * QNT);

    // The grants are in the customers' balances (promised until claimed and paid).
    const ledger = new LedgerRepository(t.db.db);
    for (const account of [customer, other]) {
      await ledger.grant(account.accountId, 'REWARD_QNT', 2n * QNT, {
        reason: 'Reward task',
        reference: `reward-task:${registered!.id}:${account.accountId}`,
      });
    }
    const claim = (status: RewardClaimStatus, qnt: string) => ({
      trackingCode: `RC-${randomUUID().slice(0, 8)}`,
      accountId: customer.accountId,
      address: '0x000000000000000000000000000000000000dead',
      amountWei: qntToWei(qnt)!,
      status,
    });
    await t.db.db
      .insert(rewardClaims)
      .values([claim('PENDING', '1'), claim('PAYING', '0.5'), claim('COMPLETED', '9'), claim('REJECTED', '4')]);
    expect(await promisedWei(t.db.db)).toBe(before + 16n * QNT + 4n * QNT + qntToWei('1.5')!);
  });

  it('of two publications at once that only one fits, one is refused', async () => {
    const room = await headroom();
    const half = room / 2n + 1n;
    const first = await draft(weiToQnt(half), 1);
    const second = await draft(weiToQnt(half), 1);
    const answers = await Promise.all([publish(first.id), publish(second.id)]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((res) => res.statusCode === 409)!.json().code).toBe('TREASURY_SHORT');
    expect(await headroom()).toBe(room - half);
  });
});
