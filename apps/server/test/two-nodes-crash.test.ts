import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { encodeFunctionData, erc20Abi, type Hex } from 'viem';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { TCreateTokenResponse, TTokensPage } from '@connect/shared';
import { DEV_ACCOUNTS } from '@connect/devchain';
import { NETWORK_SEEDS, envSuffix } from '../src/adapters/chains/catalogue.ts';
import type { Follower } from '../src/adapters/chains/follower/index.ts';
import { lockKey } from '../src/adapters/chains/follower/run.ts';
import { LOCAL_DEPLOYER_KEY } from '../src/adapters/chains/platform-deployer.ts';
import { LOCAL_QNT_ADDRESS } from '../src/adapters/chains/qnt-token.ts';
import { QNT_FOLLOWER } from '../src/services/payment/qnt-payments.ts';
import { DEPLOY_JOB } from '../src/services/tokenise/scheduler.ts';
import { CHAIN_FOLLOW_JOB } from '../src/jobs/chain-follow.ts';
import {
  chainRpc,
  createServerDatabase,
  dropServerDatabase,
  freePorts,
  serverClient,
  sleep,
  startServerProcess,
  withoutQntSettings,
  type ServerProcess,
  type Session,
} from './server-process.ts';

/**
 * Fault test of issue 31 §2 on PostgreSQL: two real servers (`node --import tsx
 * apps/server/src/server.ts`) on one database, the way an operator runs them. Node A runs the
 * local chains; node B runs none (DEVCHAINS=0) and reaches A's through NETWORK_RPC_*; both have
 * the same SECRET_KEY, and B is given the local QNT token's address. Through B, customers start
 * platform deployments and one pays QNT to its deposit address while mining is paused, so that at
 * the kill every deployment's transaction waits in the mempool (its durable job queued, one of
 * them taken by B's worker) and the transfer is seen by B's chain follower (which holds the
 * follower's lock) but not yet confirmed. B's whole process group is killed with SIGKILL just
 * after a follower run on A found B's lock — so that A's next chance to take the follower over is
 * as late as it gets: its next standby run, 10 s on (jobs/chain-follow.ts) — and mining resumes; A
 * is never restarted. Within
 * BOUND_MS of the kill every deployment is ACTIVE, charged once, with one contract, and the
 * transfer is credited once — read from A's API and the database — with A still running.
 */

/**
 * Issue 31: work a node accepted is finished by the surviving nodes within a minute of its death,
 * without a restart. Measured from the SIGKILL to the last outcome the database records (a
 * token's last change, the credit's ledger entry).
 */
const BOUND_MS = 60_000;
/** How long past the bound the test still waits, to report how late an outcome came. */
const OVERRUN_MS = 60_000;
const CUSTOMERS = 2;
/** Within the trial's tokens:create allowance (5). */
const DEPLOYMENTS_PER_CUSTOMER = 3;
const CONFIRMATIONS = 3;
/** A new account's credits (its trial plan). */
const TRIAL_CREDITS = 100;
/** 12.345 QNT, in wei. */
const QNT_PAID = 12_345n * 10n ** 15n;
/** anvil's second account pays (the first is the faucet, the last deployed the QNT token). */
const PAYER = DEV_ACCOUNTS[1]!.address.toLowerCase() as Hex;
const ETHEREUM_TESTNET = NETWORK_SEEDS.find((seed) => seed.code === 'ethereum-testnet')!;
const LOCAL_TESTNETS = NETWORK_SEEDS.filter((seed) => seed.devchainSlot !== undefined);

type Customer = Session & { ethTest: string; tierId: string };
type Node = { name: 'A' | 'B'; server: ServerProcess; client: ReturnType<typeof serverClient> };

describe.skipIf(!process.env.DATABASE_URL)(
  'kill -9 of one of two nodes with deployments and a QNT payment in flight — needs DATABASE_URL (PostgreSQL)',
  () => {
    /** Each node's DATA_DIR, made when the test runs (not when a run without PostgreSQL skips it). */
    const dataDirs: Partial<Record<'A' | 'B', string>> = {};
    let databaseUrl = '';
    const nodes: Partial<Record<'A' | 'B', Node>> = {};
    /** Both nodes' output, each line prefixed with its node. */
    const output: string[] = [];

    afterAll(async () => {
      await nodes.B?.server.killGroup();
      await nodes.A?.server.stop();
      await dropServerDatabase(databaseUrl);
      for (const dir of Object.values(dataDirs)) rmSync(dir, { recursive: true, force: true });
    });

    /** The database as the test reads it (and as each node connects, named in pg_stat_activity). */
    const connectionFor = (name: string) => {
      const url = new URL(databaseUrl);
      url.searchParams.set('application_name', name);
      return url.toString();
    };
    const query = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => {
      const client = new pg.Client({ connectionString: connectionFor('two-nodes-crash-test') });
      await client.connect();
      try {
        return (await client.query<T>(text, values)).rows;
      } finally {
        await client.end();
      }
    };

    async function startNode(
      name: 'A' | 'B',
      port: number,
      options: { chainPorts?: number[]; env: Record<string, string> },
    ) {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), `connect-two-nodes-${name.toLowerCase()}-`));
      dataDirs[name] = dataDir;
      const server = await startServerProcess({
        dataDir,
        port,
        databaseUrl: connectionFor(`connect-node-${name.toLowerCase()}`),
        inherit: withoutQntSettings(),
        ...(options.chainPorts ? { chainPorts: options.chainPorts } : {}),
        env: { LOG_LEVEL: 'info', ...options.env },
        onOutput: (chunk) =>
          output.push(
            ...chunk
              .split('\n')
              .filter(Boolean)
              .map((line) => `[${name}] ${line}`),
          ),
      });
      nodes[name] = { name, server, client: serverClient(server.baseUrl) };
      return nodes[name];
    }
    /** What an operator would read of both nodes: warnings and errors, the followers' locks, deployments. */
    const logs = () =>
      output
        .filter((line) => /"level":[4-6]\d|chain follower|token deployed/.test(line))
        .slice(-200)
        .map((line) => line.slice(0, 300))
        .join('\n');

    it('finishes the dead node’s deployments and QNT payment once, within the bound, on the node still running', async () => {
      const started = Date.now();
      const [portA = 0, portB = 0, ...chainPorts] = await freePorts(2 + LOCAL_TESTNETS.length);
      databaseUrl = await createServerDatabase('connect_two_nodes_crash');
      const rpc = <T>(method: string, params: unknown[]) => chainRpc<T>(chainPorts[0]!, method, params);
      // Both nodes open what the installation sealed (the deployer's and deposit keys) with it.
      const secretKey = randomBytes(32).toString('hex');
      const common = { SECRET_KEY: secretKey, QNT_CONFIRMATIONS: String(CONFIRMATIONS) };

      /** Which node holds the QNT follower's lock on the local Ethereum testnet (null: none). */
      const followerLockHolder = async () => {
        // The key reads only the follower's name and chain id.
        const key = lockKey({ name: QNT_FOLLOWER, network: { chainId: ETHEREUM_TESTNET.chainId } } as Follower);
        const [row] = await query<{ application_name: string }>(
          // Two-int4 advisory locks (packages/db tryLock): the key's hash is objid, objsubid 2.
          `select a.application_name from pg_locks l join pg_stat_activity a on a.pid = l.pid
           where l.locktype = 'advisory' and l.granted and l.objsubid = 2
             and l.objid = ((hashtext($1)::bigint + 4294967296) % 4294967296)::oid`,
          [key],
        );
        return row?.application_name ?? null;
      };

      // B starts first, pointed at the chains A is about to run, and A only once B's chain follower
      // holds the follower's lock (taken before the chain answers; held for a run of minutes): at
      // the kill it is B that follows the chain, and A must take over. Otherwise the first node to
      // take the follower's first run would hold it, A as often as B.
      const b = await startNode('B', portB, {
        env: {
          ...common,
          DEVCHAINS: '0',
          QNT_TOKEN_ADDRESS: LOCAL_QNT_ADDRESS,
          ...Object.fromEntries(
            LOCAL_TESTNETS.flatMap((seed) => [
              [`NETWORK_RPC_${envSuffix(seed.code)}`, `http://127.0.0.1:${chainPorts[seed.devchainSlot!]}`],
              [`NETWORK_CHAIN_ID_${envSuffix(seed.code)}`, String(seed.chainId)],
            ]),
          ),
        },
      });
      await vi
        .waitFor(async () => expect(await followerLockHolder()).toBe('connect-node-b'), {
          timeout: 15_000,
          interval: 100,
        })
        .catch((error: unknown) => {
          throw new Error(`${String(error)}\n${logs()}`);
        });
      const a = await startNode('A', portA, { chainPorts, env: common });
      expect(Number(BigInt(await rpc<Hex>('eth_chainId', [])))).toBe(ETHEREUM_TESTNET.chainId);

      // Customers through B: signed up, the local Ethereum testnet activated, its base tier.
      const newCustomer = async (): Promise<Customer> => {
        const { json, signUp } = b.client;
        const session = await signUp('two-nodes');
        const catalogue = await json<{ networks: { id: string; code: string }[] }>(
          'GET',
          '/api/integrate/v2/networks',
          undefined,
          session.headers,
        );
        expect(catalogue.status, catalogue.text).toBe(200);
        const ethTest = catalogue.body.networks.find((n) => n.code === ETHEREUM_TESTNET.code)!.id;
        const activated = await json('POST', '/api/integrate/v2/networks', { networkIds: [ethTest] }, session.headers);
        expect(activated.status, activated.text).toBeLessThan(300);
        const tiers = await json<{ tiers: { id: string; type: string }[] }>(
          'GET',
          `/api/tokenise/v2/orchestration/tiers?networkId=${ethTest}&tokenType=QRC20&deploymentType=QUANT`,
          undefined,
          session.headers,
        );
        expect(tiers.status, tiers.text).toBe(200);
        return { ...session, ethTest, tierId: tiers.body.tiers.find((t) => t.type === 'base')!.id };
      };
      const customers: Customer[] = [];
      for (let i = 0; i < CUSTOMERS; i++) customers.push(await newCustomer());
      type Holding = { held: string; depositAddress: Hex | null };
      const holding = async (node: Node, headers: Record<string, string>) => {
        const res = await node.client.json<{ qnt?: Holding }>(
          'GET',
          '/api/account-plan/subscription',
          undefined,
          headers,
        );
        expect(res.status, res.text).toBe(200);
        expect(res.body.qnt?.depositAddress, `QNT payments are on at node ${node.name}`).toBeTruthy();
        return res.body.qnt!;
      };
      const payee = customers[0]!;
      const depositAddress = (await holding(b, payee.headers)).depositAddress!.toLowerCase() as Hex;

      // The deployer's funding from the faucet (platform-deployer.ts) is a transfer the chain must
      // mine: made here while the chain mines, so that what waits below is only the work under test.
      const [deployer] = await query<{ address: Hex }>(`select address from platform_keys where name = $1`, [
        LOCAL_DEPLOYER_KEY,
      ]);
      const funding = await rpc<Hex>('eth_sendTransaction', [
        { from: DEV_ACCOUNTS[0]!.address, to: deployer!.address, value: `0x${(100n * 10n ** 18n).toString(16)}` },
      ]);
      await vi.waitFor(async () => expect(await rpc('eth_getTransactionReceipt', [funding])).toBeTruthy());

      // Mining paused (the local chains mine each transaction and a block a second): nothing sent
      // from here on is mined until the kill.
      await rpc('evm_setIntervalMining', [0]);
      expect(await rpc<boolean>('anvil_getAutomine', [])).toBe(false);

      // The QNT payment: mined in one block, which B's follower reads (PROCESSING) but cannot
      // confirm — the chain makes no more blocks until the kill.
      const transfer = (
        await rpc<Hex>('eth_sendTransaction', [
          {
            from: PAYER,
            to: LOCAL_QNT_ADDRESS,
            data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [depositAddress, QNT_PAID] }),
          },
        ])
      ).toLowerCase() as Hex;
      await rpc('evm_mine', []);
      const transferRows = () =>
        query<{ status: string; log_index: number; amount: string }>(
          `select status, log_index, amount::text as amount from qnt_transfers where tx_hash = $1`,
          [transfer],
        );
      await vi.waitFor(async () => expect(await transferRows()).toMatchObject([{ status: 'PROCESSING' }]), {
        timeout: 15_000,
        interval: 100,
      });

      // The deployments, all at once through B: each answers once its transaction is sent.
      const answers = await Promise.all(
        customers.flatMap((customer) =>
          Array.from({ length: DEPLOYMENTS_PER_CUSTOMER }, (_, i) =>
            b.client.json<TCreateTokenResponse>(
              'POST',
              '/api/tokenise/v2/token',
              {
                externalId: randomUUID(),
                networkId: customer.ethTest,
                tierId: customer.tierId,
                tokenType: 'QRC20',
                deploymentType: 'QUANT',
                name: `Two Nodes Bond ${i}`,
                unit: `TN${i}`,
                decimal: 18,
                initialSupply: 1000,
                supplyHolderAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
              },
              customer.headers,
            ),
          ),
        ),
      );
      for (const answer of answers) expect(answer.status, answer.text).toBe(201);
      const tokenIds = answers.map((answer) => answer.body.token.id);
      const tokenRows = () =>
        query<{
          id: string;
          status: string;
          tx_hash: string | null;
          contract_address: string | null;
          credits_charged: number;
          updated_at: Date;
        }>(
          `select id, status, tx_hash, contract_address, credits_charged, updated_at from tokens
           where id = any($1::uuid[]) order by id`,
          [tokenIds],
        );
      // pg-boss's own tables (schema pgboss), read for the moment of the kill and the report.
      const deployJobs = () =>
        query<{ token_id: string; state: string }>(
          `select data->>'tokenId' as token_id, state from pgboss.job where name = $1`,
          [DEPLOY_JOB],
        );
      /**
       * How long ago (ms, null: not yet) the last follower run since the minute's schedule (a job
       * without data, which sends a run per follower) ended, finding the lock taken — a standby
       * run of A's, which comes back 10 s later: the next chance for a live node to take over.
       */
      const sinceMinuteRun = async () => {
        const [row] = await query<{ ms: number | null }>(
          `select (extract(epoch from now() - max(completed_on)) * 1000)::int as ms from pgboss.job
           where name = $1 and data->>'follower' is not null and state = 'completed'
             and created_on >= (select max(created_on) from pgboss.job where name = $1 and data is null)`,
          [CHAIN_FOLLOW_JOB],
        );
        return row?.ms ?? null;
      };

      // The kill comes once every deployment is sent and its durable job queued, each node's worker
      // has one of those jobs (one at a time per node: two active means B has one), and — the worst
      // moment for the follower's takeover — within a second or two of a follower run of A's
      // finding B's lock (A stands by, trying every 10 s).
      await vi.waitFor(
        async () => {
          const rows = await tokenRows();
          expect(rows.filter((row) => row.tx_hash)).toHaveLength(tokenIds.length);
          expect(await rpc<{ pending: Hex }>('txpool_status', [])).toMatchObject({
            pending: `0x${tokenIds.length.toString(16)}`,
          });
          const jobs = await deployJobs();
          expect(new Set(jobs.map((job) => job.token_id))).toEqual(new Set(tokenIds));
          expect(jobs.filter((job) => job.state === 'active')).toHaveLength(2);
          expect(await sinceMinuteRun()).toBeLessThan(2_000);
        },
        { timeout: 150_000, interval: 20 },
      );
      const atKill = {
        sinceMinuteRun: (await sinceMinuteRun())!,
        holder: await followerLockHolder(),
        tokens: await tokenRows(),
        transfer: await transferRows(),
      };
      const killedAt = Date.now();
      await b.server.killGroup();
      await rpc('evm_setIntervalMining', [1]);
      delete nodes.B;

      // What was in flight at the kill.
      expect(atKill.holder, 'B follows the chain at the kill').toBe('connect-node-b');
      expect(atKill.tokens.map((row) => row.status)).toEqual(tokenIds.map(() => 'PENDING'));
      expect(atKill.transfer).toMatchObject([{ status: 'PROCESSING' }]);
      const creditReference = `qnt-transfer:${ETHEREUM_TESTNET.chainId}:${transfer}:${atKill.transfer[0]!.log_index}`;

      // A's API, polled until every deployment is ACTIVE and the payment credited (or the wait
      // runs out well past the bound, so that a late outcome is measured, not only refused). Each
      // outcome's moment is the database's (the token's last change, the credit's entry).
      for (const customer of customers) customer.headers = await a.client.signIn(customer.email, customer.password);
      const tokensAtA = async (customer: Customer) => {
        const page = await a.client.json<TTokensPage>('POST', '/api/tokenise/tokens', { size: 100 }, customer.headers);
        expect(page.status, page.text).toBe(200);
        return page.body;
      };
      let pages: TTokensPage[] = [];
      let held = 0n;
      for (;;) {
        pages = await Promise.all(customers.map(tokensAtA));
        held = BigInt((await holding(a, payee.headers)).held);
        if (pages.every((page) => page.content.every((token) => token.status === 'ACTIVE')) && held === QNT_PAID) break;
        if (Date.now() > killedAt + BOUND_MS + OVERRUN_MS) break;
        await sleep(250);
      }
      const tokens = await tokenRows();
      const [credit] = await query<{ created_at: Date }>(`select created_at from ledger_entries where reference = $1`, [
        creditReference,
      ]);
      const [takeover] = await query<{ started_on: Date }>(
        `select max(started_on) as started_on from pgboss.job where name = $1 and data->>'follower' is not null`,
        [CHAIN_FOLLOW_JOB],
      );
      // The next minute's scheduled job (no data): when a live node could first try the follower's lock.
      const [schedule] = await query<{ created_on: Date | null }>(
        `select min(created_on) as created_on from pgboss.job where name = $1 and data is null and created_on > $2`,
        [CHAIN_FOLLOW_JOB, new Date(killedAt)],
      );
      const sinceKill = (at: Date) => new Date(at).getTime() - killedAt;
      const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      const ended = [
        ...tokens.map((row) => (row.status === 'ACTIVE' ? sinceKill(row.updated_at) : Infinity)),
        credit ? sinceKill(credit.created_at) : Infinity,
      ];
      const report =
        `two-nodes-crash: ${tokenIds.length} deployments and a QNT payment in flight at the kill ` +
        `(${seconds(atKill.sinceMinuteRun)} after A's follower run found B's lock); after it: tokens ACTIVE at ` +
        `${tokens.map((row) => (row.status === 'ACTIVE' ? seconds(sinceKill(row.updated_at)) : row.status)).join(', ')}; ` +
        `the next minute's scheduled follower job queued at ` +
        `${schedule?.created_on ? seconds(sinceKill(schedule.created_on)) : 'never'}, A's follower run began at ` +
        `${seconds(sinceKill(takeover!.started_on))}, the QNT credited at ` +
        `${credit ? seconds(sinceKill(credit.created_at)) : 'never'} (bound ${seconds(BOUND_MS)}); ` +
        `${((Date.now() - started) / 1000).toFixed(0)} s in all`;
      console.log(report);

      // Everything ended, within the bound, with A still running (never restarted).
      expect(Math.max(...ended), `${report}\n${logs()}`).toBeLessThanOrEqual(BOUND_MS);
      expect(a.server.child.exitCode).toBeNull();
      expect((await fetch(`${a.server.baseUrl}/api/health`)).ok).toBe(true);

      // Each deployment once: ACTIVE on A's API and in the database, with a contract of its own on
      // the chain, made by its one mined transaction (a fee bump replaces it at the same nonce, never
      // a second deployment); charged once (its ledger entry, nothing refunded).
      for (const page of pages) {
        expect(page.content.map((token) => token.status)).toEqual(
          Array.from({ length: DEPLOYMENTS_PER_CUSTOMER }, () => 'ACTIVE'),
        );
        const charged = page.content.reduce((sum, token) => sum + token.creditsCharged, 0);
        expect(page.credits).toBe(TRIAL_CREDITS - charged);
      }
      expect(new Set(tokens.map((row) => row.contract_address)).size).toBe(tokenIds.length);
      const sent = await query<{ reference: string; nonce: string; status: string; tx_hash: Hex }>(
        `select reference, nonce::text as nonce, status, tx_hash from platform_transactions where reference = any($1)`,
        [tokenIds.map((id) => `token:${id}`)],
      );
      expect(new Set(sent.map((row) => row.nonce)).size).toBe(tokenIds.length);
      for (const row of tokens) {
        expect(row.status, row.id).toBe('ACTIVE');
        expect(row.credits_charged, row.id).toBeGreaterThan(0);
        const mine = sent.filter((tx) => tx.reference === `token:${row.id}`);
        expect(new Set(mine.map((tx) => tx.nonce)).size, row.id).toBe(1);
        const mined = mine.filter((tx) => tx.status === 'MINED');
        expect(mined, row.id).toHaveLength(1);
        const receipt = await rpc<{ contractAddress: string }>('eth_getTransactionReceipt', [mined[0]!.tx_hash]);
        expect(receipt.contractAddress.toLowerCase(), row.id).toBe(row.contract_address!.toLowerCase());
        expect((await rpc<Hex>('eth_getCode', [row.contract_address, 'latest'])).length, row.id).toBeGreaterThan(2);
      }
      const charges = await query<{ reference: string; amount: string }>(
        `select reference, amount::text as amount from ledger_entries
         where reference = any($1::text[]) or reference like 'refund:token:%'`,
        [tokenIds.map((id) => `token:${id}`)],
      );
      expect(charges.map((row) => [row.reference, Number(row.amount)]).sort()).toEqual(
        tokens.map((row) => [`token:${row.id}`, -row.credits_charged]).sort(),
      );

      // The payment once: one transfer row, CONFIRMED; one QNT entry in the whole ledger, its credit
      // to the payee, who holds that amount on A's API.
      expect(await transferRows()).toEqual([
        { status: 'CONFIRMED', log_index: atKill.transfer[0]!.log_index, amount: QNT_PAID.toString() },
      ]);
      const [payeeAccount] = await query<{ account_id: string }>(
        `select account_id from deposit_addresses where address = $1`,
        [depositAddress],
      );
      expect(
        await query(
          `select account_id, kind, reference, amount::text as amount from ledger_entries where asset = 'QNT'`,
        ),
      ).toEqual([
        {
          account_id: payeeAccount!.account_id,
          kind: 'payment',
          reference: creditReference,
          amount: QNT_PAID.toString(),
        },
      ]);
      expect(held).toBe(QNT_PAID);

      // Every balance is the sum of its entries.
      const drift = await query(
        `select b.account_id from ledger_balances b
         left join (select account_id, asset, sum(amount) as total from ledger_entries group by 1, 2) e
           using (account_id, asset)
         where b.balance <> coalesce(e.total, 0)`,
      );
      expect(drift).toEqual([]);
    }, 360_000);
  },
);
