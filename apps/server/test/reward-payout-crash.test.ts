import { randomInt } from 'node:crypto';
import { decodeEventLog, erc20Abi, pad, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { users } from '@connect/db';
import { qntToWei, weiToQnt, type TClaim } from '@connect/shared';
import { eq } from 'drizzle-orm';
import { ensureLocalQntToken, TRANSFER_TOPIC } from '../src/adapters/chains/qnt-token.ts';
import { rpcCall } from '../src/adapters/chains/rpc.ts';
import { LedgerRepository } from '../src/repositories/ledger.ts';
import { startTestChain, type TestChain } from './chains.ts';
import { putOnPlan } from './plans.ts';
import { faultTestServer, sleep, withoutQntSettings } from './server-process.ts';

/**
 * Fault test of the reward payouts (issue 34 §3, §4): the real server runs in a process group of
 * its own, on a local anvil chain the TEST owns (started here, so it outlives every kill and keeps
 * every block). Customers claim REWARD_QNT to fresh addresses; the administrator pays all the
 * claims at once and the WHOLE server group is killed with SIGKILL once some answers arrived (1,
 * then 5, then 9; a few ms more, at random), KILLS times: the kills land while transfers are being
 * signed, stored, sent and followed. After each restart the start-up recovery sends again what was stored and not
 * sent, and the administrator pays again every claim (as staff retrying would): a claim that went
 * PAYING answers 409, one still PENDING is paid now.
 *
 * Then, from the chain and the database: every claim is COMPLETED and paid exactly once — each
 * address holds exactly its claim, one Transfer from the treasury each, one stored transaction per
 * claim that the chain mined; the ledger's REWARD_QNT claims add up to what the chain moved, and
 * every balance is the sum of its entries.
 */

const CUSTOMERS = 10;
const CLAIMS_PER_CUSTOMER = 2;
const KILLS = 3;
const ADMIN = { email: 'admin@crash.test', password: 'Crash-test-admin-1!' };
/** Each customer's reward balance: room for both of its claims. */
const EARNED = '100';

type Claimant = { email: string; password: string; accountId: string; headers: Record<string, string> };
type Claim = { id: string; accountId: string; address: string; amount: bigint };

describe('kill -9 of the server’s process group while reward claims are paid', () => {
  const fault = faultTestServer('reward-payout-crash');
  let chain: TestChain | undefined;
  let token: Hex;
  afterAll(async () => chain?.stop());

  const startServer = () =>
    fault.start({
      inherit: withoutQntSettings(),
      env: {
        // The test's chain as the Ethereum testnet (on loopback: a local chain, so the treasury is the installation's).
        DEVCHAINS: '0',
        NETWORK_RPC_ETHEREUM_TESTNET: chain!.rpcUrl,
        NETWORK_CHAIN_ID_ETHEREUM_TESTNET: String(chain!.chainId),
        QNT_TOKEN_ADDRESS: token,
        QNT_CONFIRMATIONS: '1',
        CARD_SANDBOX: 'off',
        STRIPE_SECRET_KEY: '',
        STRIPE_PUBLISHABLE_KEY: '',
        STRIPE_WEBHOOK_SECRET: '',
      },
    });
  const { json, signIn, signInStaff, signUp } = fault.client;
  const rpc = <T>(method: string, params: unknown[] = []) => rpcCall<T>(chain!.rpcUrl, method, params);
  const qntAt = async (address: string) => {
    const data = `0x70a08231${address.slice(2).toLowerCase().padStart(64, '0')}` as Hex;
    return BigInt(await rpc<Hex>('eth_call', [{ to: token, data }, 'latest']));
  };

  /** Pays every claim at once; answers each one's status, or 'lost' when the kill cut it off. */
  async function payAll(
    claims: Claim[],
    admin: Record<string, string>,
    kill?: { afterAnswers: number; then: () => void },
  ) {
    let answered = 0;
    return Promise.all(
      claims.map(async (claim) => {
        try {
          const res = await json<{ status?: string; code?: string }>(
            'POST',
            `/api/campaign/management/reward/claims/${claim.id}/pay`,
            {},
            admin,
          );
          if (++answered === kill?.afterAnswers) kill.then();
          return res.status === 200 ? 'paid' : (res.body?.code ?? String(res.status));
        } catch {
          return 'lost';
        }
      }),
    );
  }

  it('pays every claim exactly once across the kills and restarts', async () => {
    const started = Date.now();
    chain = await startTestChain();
    token = await ensureLocalQntToken(chain.rpcUrl);
    await fault.prepare(0);
    await startServer();

    // Customers over the wire; then, with the server stopped, rewards access and a balance for each.
    const claimants: Claimant[] = [];
    for (let i = 0; i < CUSTOMERS; i++) {
      const { email, password, headers } = await signUp('reward-payout-crash');
      const me = await json<{ accountId?: string }>('GET', '/api/account-plan/user-plan', undefined, headers);
      expect(me.status, me.text).toBe(200);
      claimants.push({ email, password, headers, accountId: '' });
    }
    await fault.server.stop();
    await fault.withDatabase(
      async (dbh) => {
        for (const claimant of claimants) {
          const [row] = await dbh.db
            .select({ accountId: users.accountId })
            .from(users)
            .where(eq(users.email, claimant.email));
          claimant.accountId = row!.accountId;
          await putOnPlan(dbh.db, claimant.accountId, 'annual-standard', { lastPaymentMethod: 'QNT' });
          await new LedgerRepository(dbh.db).grant(claimant.accountId, 'REWARD_QNT', qntToWei(EARNED)!, {
            reason: 'crash test rewards',
            reference: `crash-test:${claimant.accountId}`,
          });
        }
      },
      { copy: false },
    );
    await startServer();

    const claims: Claim[] = [];
    for (const claimant of claimants) {
      claimant.headers = await signIn(claimant.email, claimant.password);
      for (let n = 0; n < CLAIMS_PER_CUSTOMER; n++) {
        const address = privateKeyToAddress(generatePrivateKey()).toLowerCase();
        // A distinct amount each, to the µQNT.
        const amount = qntToWei('1')! + BigInt(randomInt(1, 1_000_000)) * 10n ** 12n;
        const res = await json<TClaim>(
          'POST',
          '/api/campaign/reward',
          { address, qnt: weiToQnt(amount) },
          claimant.headers,
        );
        expect(res.status, res.text).toBe(201);
        claims.push({ id: res.body.id, accountId: claimant.accountId, address, amount });
      }
    }
    const admin = await signInStaff(ADMIN.email, ADMIN.password);

    const summaries: string[] = [];
    for (let kill = 0; kill < KILLS; kill++) {
      let killed: Promise<void> = Promise.resolve();
      // Each kill after more answers (1, 5, 9): the payouts are signed one after another (one
      // treasury key, one nonce at a time), so later kills land among later payouts.
      const outcomes = await payAll(claims, admin, {
        afterAnswers: 1 + kill * 4,
        then: () => {
          killed = sleep(randomInt(0, 20)).then(() => fault.server.killGroup());
        },
      });
      await killed;
      await fault.server.killGroup();
      // What the killed server had stored and what the chain had of it.
      const stored = await fault.withDatabase(
        async (dbh) =>
          (
            await dbh.query(`select c.status, c.tx_hash from reward_claims c where c.id = any($1)`, [
              claims.map((c) => c.id),
            ])
          ).rows,
        { copy: true },
      );
      let unsent = 0;
      for (const row of stored) {
        if (row.tx_hash && (await rpc<unknown>('eth_getTransactionByHash', [row.tx_hash])) === null) unsent++;
      }
      const count = (what: string) => outcomes.filter((o) => o === what).length;
      summaries.push(
        `kill ${kill + 1}: ${count('paid')} answered paid, ${count('CLAIM_NOT_PENDING')} not pending, ` +
          `${count('lost')} cut off; ${stored.filter((r) => r.status !== 'PENDING').length} stored, ` +
          `${unsent} of them stored and not yet sent`,
      );
      // The administrator's token outlives the restart (the pool's keys are in the database).
      await startServer();
    }
    // The last round: staff pay what is still PENDING; the others answer 409.
    const last = await payAll(claims, admin);
    expect(
      last.every((o) => o === 'paid' || o === 'CLAIM_NOT_PENDING'),
      last.join(', '),
    ).toBe(true);

    // Every claim COMPLETED (the follower, one confirmation).
    const doneBy = Date.now() + 90_000;
    for (;;) {
      const statuses = await Promise.all(
        claims.map(async (claim) => {
          const res = await json<{ status: string }>(
            'GET',
            `/api/campaign/management/reward/claims/${claim.id}`,
            undefined,
            admin,
          );
          return res.body.status;
        }),
      );
      if (statuses.every((s) => s === 'COMPLETED')) break;
      if (Date.now() > doneBy)
        throw new Error(`claims not completed: ${statuses.join(', ')}\n${fault.output.join('')}`);
      await sleep(500);
    }
    await fault.server.stop();

    // The chain: each address holds exactly its claim, from one Transfer of the treasury.
    for (const claim of claims) expect(await qntAt(claim.address), claim.id).toBe(claim.amount);
    const treasury = await fault.withDatabase(
      async (dbh) =>
        String(
          (await dbh.query(`select address from platform_keys where name = 'reward-treasury:local-chains'`)).rows[0]!
            .address,
        ),
      { copy: false },
    );
    const logs = await rpc<{ transactionHash: Hex; topics: Hex[]; data: Hex }[]>('eth_getLogs', [
      {
        fromBlock: '0x0',
        toBlock: 'latest',
        address: token,
        topics: [TRANSFER_TOPIC, pad(treasury.toLowerCase() as Hex, { size: 32 })],
      },
    ]);
    const transfers = logs.map((log) => {
      const { args } = decodeEventLog({
        abi: erc20Abi,
        eventName: 'Transfer',
        topics: log.topics as [Hex, ...Hex[]],
        data: log.data,
      });
      return { txHash: log.transactionHash.toLowerCase(), to: args.to.toLowerCase(), value: args.value };
    });
    const addresses = new Set(claims.map((c) => c.address));
    const payouts = transfers.filter((t) => addresses.has(t.to));
    expect(payouts).toHaveLength(claims.length);
    const movedOnChain = payouts.reduce((sum, t) => sum + t.value, 0n);

    await fault.withDatabase(
      async (dbh) => {
        const rows = async (text: string, params: unknown[] = []) => (await dbh.query(text, params)).rows;
        for (const claim of claims) {
          const [row] = await rows(`select status, tx_hash from reward_claims where id = $1`, [claim.id]);
          expect(row!.status, claim.id).toBe('COMPLETED');
          const transfer = payouts.find((t) => t.to === claim.address)!;
          expect(row!.tx_hash, claim.id).toBe(transfer.txHash);
          // One signed transfer per claim (never a second signing), the one the chain mined.
          const signed = await rows(`select tx_hash, status from platform_transactions where reference = $1`, [
            `reward-claim:${claim.id}`,
          ]);
          expect(signed, claim.id).toEqual([{ tx_hash: transfer.txHash, status: 'MINED' }]);
        }
        // The ledger: the claims' holds add up to what the chain moved; nothing released.
        const [held] = await rows(
          `select coalesce(sum(-amount), 0)::text as total, count(*)::int as n from ledger_entries
           where asset = 'REWARD_QNT' and kind = 'claim' and reference like 'reward-claim:%'`,
        );
        expect([held!.total, held!.n]).toEqual([movedOnChain.toString(), claims.length]);
        const released = await rows(`select 1 from ledger_entries where reference like 'reward-claim-release:%'`);
        expect(released).toEqual([]);
        for (const claimant of claimants) {
          const mine = claims.filter((c) => c.accountId === claimant.accountId).reduce((s, c) => s + c.amount, 0n);
          const [balance] = await rows(
            `select balance::text as balance from ledger_balances where account_id = $1 and asset = 'REWARD_QNT'`,
            [claimant.accountId],
          );
          expect(BigInt(String(balance!.balance))).toBe(qntToWei(EARNED)! - mine);
        }
        const drift = await rows(
          `select b.account_id from ledger_balances b
           left join (select account_id, asset, sum(amount) as total from ledger_entries group by 1, 2) e
             using (account_id, asset)
           where b.balance <> coalesce(e.total, 0)`,
        );
        expect(drift).toEqual([]);
      },
      { copy: false },
    );
    console.log(
      `reward-payout-crash: ${claims.length} claims; ${summaries.join('; ')}; ` +
        `${((Date.now() - started) / 1000).toFixed(0)} s in all`,
    );
  }, 300_000);
});
