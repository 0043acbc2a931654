import { copyFileSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { encodeFunctionData, erc20Abi, type Hex } from 'viem';
import { describe, expect, it, vi } from 'vitest';
import { DEV_ACCOUNTS } from '@connect/devchain';
import { LOCAL_QNT_ADDRESS } from '../src/adapters/chains/qnt-token.ts';
import { chainRpc, faultTestServer, withoutQntSettings } from './server-process.ts';

/**
 * Fault test of issue 27 §4: the real server with its local chains (server-process.ts) credits
 * QNT transfers to a customer; the WHOLE process group — server and anvil — is killed with SIGKILL
 * while the chain has not saved the last three confirmed and credited transfers (510 QNT). anvil
 * saves its state every second (packages/devchain `--state-interval`); a kill inside that second
 * loses what came after the last save. The test makes that second certain instead of waiting for
 * luck: it keeps the state file the chain wrote after the first transfer and before the three, and
 * puts it back after the kill, as the chain would have left it had the kill come a second earlier.
 *
 * After the restart the chain lacks the three transfers; the follower's confirmed-block-lost hook
 * and the new chain's confirmations must bring the ledger back to the chain: the three credits
 * taken back once, the first transfer's kept; the customer told (bell and email) and staff alerted
 * (staff_alerts, and its mail to STAFF_ALERT_EMAIL).
 */

const CONFIRMATIONS = 3;
const QNT = 10n ** 18n;
const STAFF = 'staff-alerts@crash.test';
const payer = DEV_ACCOUNTS[3]!.address.toLowerCase() as Hex;

describe('kill -9 of the server’s process group after confirmed QNT transfers the chain had not saved', () => {
  const fault = faultTestServer('qnt-reorg-crash');
  const { dataDir } = fault;
  const stateFile = path.join(dataDir, 'chains', 'ethereum-testnet.json');
  let chainPorts: number[] = [];
  const { json, signIn, signInStaff, signUp } = fault.client;

  const startServer = () =>
    fault.start({
      chainPorts,
      inherit: withoutQntSettings(),
      env: { QNT_CONFIRMATIONS: String(CONFIRMATIONS), STAFF_ALERT_EMAIL: STAFF },
    });

  const rpc = <T>(method: string, params: unknown[]) => chainRpc<T>(chainPorts[0]!, method, params);
  const pay = async (to: Hex, amount: bigint) => {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] });
    const hash = (await rpc<Hex>('eth_sendTransaction', [{ from: payer, to: LOCAL_QNT_ADDRESS, data }])).toLowerCase();
    await vi.waitFor(async () => expect(await rpc('eth_getTransactionReceipt', [hash])).toBeTruthy(), {
      timeout: 5_000,
      interval: 50,
    });
    return hash as Hex;
  };
  const held = async (headers: Record<string, string>) => {
    const res = await json<{ qnt?: { held: string; depositAddress: Hex } }>(
      'GET',
      '/api/account-plan/subscription',
      undefined,
      headers,
    );
    expect(res.status, res.text).toBe(200);
    return res.body.qnt!;
  };
  const until = (what: string, check: () => Promise<boolean>, ms = 60_000) =>
    vi.waitFor(
      async () => {
        if (!(await check())) throw new Error(`${what} did not happen in time:\n${fault.server.output.join('')}`);
      },
      { timeout: ms, interval: 250 },
    );

  it('takes back the credits of the transfers the restarted chain lost, keeps the rest, and tells the customer and staff', async () => {
    chainPorts = await fault.prepare(2);
    await startServer();
    const customer = await signUp('qnt-reorg-crash');
    const address = (await held(customer.headers)).depositAddress.toLowerCase() as Hex;

    // The first transfer, credited, then saved by the chain (a dump written after it was mined).
    const kept = await pay(address, 7n * QNT);
    const keptMinedAt = Date.now();
    await until('the first credit', async () => BigInt((await held(customer.headers)).held) === 7n * QNT);
    await until('a state dump after the first transfer', async () => {
      if (statSync(stateFile).mtimeMs <= keptMinedAt + 1_000) return false;
      try {
        JSON.parse(readFileSync(stateFile, 'utf8')); // a whole dump, not one being written
        return true;
      } catch {
        return false;
      }
    });
    const saved = path.join(dataDir, 'saved-state.json');
    copyFileSync(stateFile, saved);
    JSON.parse(readFileSync(saved, 'utf8'));

    // Three more, 510 QNT, confirmed and credited; then the whole group is killed and the chain
    // comes back from the dump written before them.
    const lost = [await pay(address, 100n * QNT), await pay(address, 200n * QNT), await pay(address, 210n * QNT)];
    await until('the three credits', async () => BigInt((await held(customer.headers)).held) === 517n * QNT);
    await fault.server.killGroup();
    copyFileSync(saved, stateFile);
    await startServer();
    for (const hash of lost) expect(await rpc('eth_getTransactionReceipt', [hash])).toBeNull();
    expect(await rpc('eth_getTransactionReceipt', [kept])).not.toBeNull();

    // The new chain grows past the old height and is confirmed there: the three credits go.
    const headers = await signIn(customer.email, customer.password);
    await until('the three credits taken back', async () => BigInt((await held(headers)).held) === 7n * QNT, 90_000);
    const admin = await signInStaff('admin@crash.test', 'Crash-test-admin-1!');
    type Outbox = { messages: { subject: string }[] };
    const subjects = async (to: string) =>
      (await json<Outbox>('GET', `/api/dev/outbox?to=${encodeURIComponent(to)}`)).body.messages.map((m) => m.subject);
    await until('the customer’s and staff’s mails', async () => {
      const customerMails = (await subjects(customer.email)).filter((s) => s === 'A QNT payment was taken back');
      const staffMails = (await subjects(STAFF)).filter((s) => s === 'Staff alert: QNT_TRANSFER_REVERSED');
      return customerMails.length === 3 && staffMails.length === 3;
    });
    const alerts = await json<{ alerts: { code: string; message: string }[] }>(
      'GET',
      '/api/connect/management/alerts',
      undefined,
      admin,
    );
    expect(alerts.status, alerts.text).toBe(200);
    expect(alerts.body.alerts.map((a) => a.code)).toEqual(Array(3).fill('QNT_TRANSFER_REVERSED'));
    for (const hash of lost) expect(alerts.body.alerts.some((a) => a.message.includes(hash))).toBe(true);
    // More rounds of the follower, past the reversals: a transfer sent now is credited (after its
    // confirmations), and nothing moved twice meanwhile.
    const marker = await pay(address, 1n * QNT);
    await until('the later transfer credited', async () => BigInt((await held(headers)).held) === 8n * QNT);
    await fault.server.stop();

    // The ledger matches the chain: the kept transfer credited once, each lost one credited and
    // taken back once; every balance the sum of its entries.
    const dbh = await fault.openDatabase();
    try {
      const transfers = (await dbh.query(`select tx_hash, status from qnt_transfers`)).rows;
      expect(new Map(transfers.map((r) => [String(r.tx_hash), String(r.status)]))).toEqual(
        new Map([
          [kept, 'CONFIRMED'],
          [marker, 'CONFIRMED'],
          ...lost.map((hash): [string, string] => [hash, 'REVERSED']),
        ]),
      );
      const entries = (
        await dbh.query(`select kind, amount::text as amount, reference from ledger_entries where asset = 'QNT'`)
      ).rows;
      const of = (hash: string) => entries.filter((e) => String(e.reference).includes(hash)).map((e) => e.kind);
      expect(of(kept)).toEqual(['payment']);
      expect(of(marker)).toEqual(['payment']);
      for (const hash of lost) expect(of(hash).sort()).toEqual(['payment', 'reversal']);
      const drift = await dbh.query(
        `select b.account_id from ledger_balances b
         left join (select account_id, asset, sum(amount) as total from ledger_entries group by 1, 2) e
           using (account_id, asset)
         where b.balance <> coalesce(e.total, 0)`,
      );
      expect(drift.rows).toEqual([]);
      const bell = await dbh.query(`select count(*)::int as n from notifications where kind = 'qnt.reversed'`);
      expect(bell.rows[0]!.n).toBe(3);
    } finally {
      await dbh.close();
    }
  }, 240_000);
});
