import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import type { TTokensPage } from '@connect/shared';
import { faultTestServer } from './server-process.ts';

/**
 * Fault test of issue 11 §5: the real server (`node --import tsx apps/server/src/server.ts`, as
 * the end-to-end journeys start it) runs in a process group of its own with its local anvil
 * chains; while platform deployments are under way the WHOLE group is killed with SIGKILL, chains
 * included. A new server on the same DATA_DIR (and database) must leave the database and the
 * chain agreeing: every ACTIVE token has code at its contract address, nothing stays PENDING, a
 * FAILED one was not charged, and each account's credits are its trial credits minus what its
 * ACTIVE tokens were charged (on PostgreSQL, the ledger's entries are checked too).
 */

const TRIAL_CREDITS = 100;

/** Whether a process runs (a killed one whose parent died may linger as a zombie until reaped). */
const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
};

describe('kill -9 of the server’s process group during platform deployments', () => {
  const fault = faultTestServer('crash');
  const { dataDir } = fault;
  let chainPorts: number[] = [];
  const startServer = () => fault.start({ chainPorts });

  const { json, signIn, signUp } = fault.client;
  /** A confirmed user over the wire (sign-up, the mailed code, sign-in), with the local Ethereum testnet activated. */
  const newUser = async () => {
    const { email, password, headers } = await signUp('crash');
    const catalogue = await json<{ networks: { id: string; code: string }[] }>(
      'GET',
      '/api/integrate/v2/networks',
      undefined,
      headers,
    );
    expect(catalogue.status, catalogue.text).toBe(200);
    const ethTest = catalogue.body.networks.find((n) => n.code === 'ethereum-testnet')!.id;
    const activated = await json('POST', '/api/integrate/v2/networks', { networkIds: [ethTest] }, headers);
    expect(activated.status, activated.text).toBeLessThan(300);
    const tiers = await json<{ tiers: { id: string; type: string }[] }>(
      'GET',
      `/api/tokenise/v2/orchestration/tiers?networkId=${ethTest}&tokenType=QRC20&deploymentType=QUANT`,
      undefined,
      headers,
    );
    expect(tiers.status, tiers.text).toBe(200);
    return { email, password, headers, ethTest, tierId: tiers.body.tiers.find((t) => t.type === 'base')!.id };
  };
  const tokensOf = async (headers: Record<string, string>) => {
    const page = await json<TTokensPage>('POST', '/api/tokenise/tokens', { size: 100 }, headers);
    expect(page.status, page.text).toBe(200);
    return page.body;
  };
  const rpc = async <T>(method: string, params: unknown[]) => {
    const res = await fetch(`http://127.0.0.1:${chainPorts[0]}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return ((await res.json()) as { result: T }).result;
  };

  it('leaves every ACTIVE token on the chain and every PENDING one ACTIVE or FAILED and refunded', async () => {
    chainPorts = await fault.prepare(2);
    await startServer();
    const users = [await newUser(), await newUser()];

    // Five platform deployments per user (their tokens:create allowance), all at once; the group
    // is killed once a few have answered, while the rest are being signed, sent or mined.
    let answered = 0;
    const posts = users.flatMap((user) =>
      Array.from({ length: 5 }, (_, i) =>
        json(
          'POST',
          '/api/tokenise/v2/token',
          {
            externalId: randomUUID(),
            networkId: user.ethTest,
            tierId: user.tierId,
            tokenType: 'QRC20',
            deploymentType: 'QUANT',
            name: `Crash Bond ${i}`,
            unit: `CR${i}`,
            decimal: 18,
            initialSupply: 1000,
            supplyHolderAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
          },
          user.headers,
        ).then(
          (res) => {
            answered++;
            return res;
          },
          () => null, // the server died before answering
        ),
      ),
    );
    const killAfter = Date.now() + 20_000;
    await vi
      .waitFor(() => expect(answered).toBeGreaterThanOrEqual(3), { timeout: killAfter - Date.now(), interval: 5 })
      .catch(() => undefined); // asserted below, after the kill
    const chainPids = ['ethereum-testnet', 'polygon-testnet'].map(
      (code) => (JSON.parse(readFileSync(path.join(dataDir, 'chains', `${code}.pid`), 'utf8')) as { pid: number }).pid,
    );
    await fault.server.killGroup();
    await Promise.all(posts);
    expect(answered).toBeGreaterThanOrEqual(3);
    // The chains died with the server: nothing saved them on the way out.
    for (const pid of chainPids) expect(isRunning(pid)).toBe(false);
    expect(existsSync(path.join(dataDir, 'chains', 'ethereum-testnet.json'))).toBe(true);

    await startServer();
    for (const user of users) user.headers = await signIn(user.email, user.password);

    const pages: TTokensPage[] = await vi.waitFor(
      async () => {
        const read = await Promise.all(users.map((user) => tokensOf(user.headers)));
        const pending = read.flatMap((page) => page.content).filter((token) => token.status === 'PENDING');
        if (pending.length) throw new Error(`still PENDING after the restart: ${pending.map((t) => t.id).join(', ')}`);
        return read;
      },
      { timeout: 30_000, interval: 250 },
    );
    const all = pages.flatMap((page) => page.content);
    expect(all.length).toBeGreaterThanOrEqual(3);
    for (const token of all) {
      expect(['ACTIVE', 'FAILED'], `${token.id}: ${token.status}`).toContain(token.status);
      if (token.status === 'ACTIVE') {
        const code = await rpc<string>('eth_getCode', [token.smartContractAddress, 'latest']);
        expect(code.length, `token ${token.id} is ACTIVE but its contract is not on the chain`).toBeGreaterThan(2);
        expect(token.creditsCharged).toBeGreaterThan(0);
      } else {
        expect(token.creditsCharged).toBe(0);
      }
    }
    for (const page of pages) {
      const charged = page.content.reduce((sum, token) => sum + token.creditsCharged, 0);
      expect(page.credits).toBe(TRIAL_CREDITS - charged);
    }
    if (fault.databaseUrl) {
      // On PostgreSQL the ledger is read too: each token's charge and refund net to what it was
      // charged, and every balance is the sum of its entries.
      const client = new pg.Client({ connectionString: fault.databaseUrl });
      await client.connect();
      try {
        const moved = await client.query<{ reference: string; amount: string }>(
          `select reference, amount from ledger_entries where reference like 'token:%' or reference like 'refund:token:%'`,
        );
        const net = new Map<string, number>();
        for (const row of moved.rows) {
          const id = row.reference.replace(/^(refund:)?token:/, '');
          net.set(id, (net.get(id) ?? 0) + Number(row.amount));
        }
        // 0 - charged, not -charged: a FAILED token (nothing charged) nets to +0, and -0 is not +0 to toBe.
        for (const token of all) expect(net.get(token.id) ?? 0, token.id).toBe(0 - token.creditsCharged);
        const drift = await client.query(
          `select b.account_id from ledger_balances b
           left join (select account_id, asset, sum(amount) as total from ledger_entries group by 1, 2) e
             using (account_id, asset)
           where b.balance <> coalesce(e.total, 0)`,
        );
        expect(drift.rows).toEqual([]);
      } finally {
        await client.end();
      }
    }
  }, 240_000);
});
