import { randomInt } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { METHOD_PRICES_MICRO, methodClass, type TApplicationUsage } from '@connect/shared';
import { faultTestServer, sleep } from './server-process.ts';

/**
 * Fault test of the gateway's usage metering (issue 17): the gateway counts each JSON-RPC call
 * in memory and adds the counts to gateway_usage_hourly, and their price to the application's
 * month in application_month_spend, in one transaction per flush (USAGE_FLUSH_MS, about every
 * second; apps/server/src/services/gateway/usage-recorder.ts and repository.ts addUsage).
 *
 * The real server (`node --import tsx apps/server/src/server.ts`, with its local chains) runs in a
 * process group of its own while an application calls the gateway over HTTP, IN_FLIGHT calls at a
 * time: eth_chainId (the gateway's own copy), eth_blockNumber (a shared answer) and eth_getLogs
 * (forwarded to the local chain, a log query's price). Once a flush has been written and the
 * traffic has run for a while, the WHOLE group is killed with SIGKILL with calls in flight; the
 * calls counted in memory since the last flush are lost with it. A new server on the same DATA_DIR
 * (and database) is started, and the database must show, per method:
 *
 * 1. never more calls billed than were answered (200 with a result) before the kill: a call that
 *    was refused (429: the plan's rate) or never answered is not billed;
 * 2. some calls billed, at least as many as the server reported written before the kill: the
 *    flushes before it were kept;
 * 3. the month's spend and the counters' micro-credits are exactly each method's billed calls
 *    times its price (METHOD_PRICES_MICRO of its class): no flush half written.
 *
 * 4. Then the graceful path: BURST more calls, all served, SIGTERM (the server writes what it
 *    counted on its way out) and a restart: exactly BURST more calls billed, at their price.
 */

/** Calls on their way at any moment of the traffic (one loop each, one call after another). */
const IN_FLIGHT = 24;
/**
 * The least traffic before the kill, from the first answer (the kill also waits until a flush is
 * reported written); up to a second more is added at random.
 */
const TRAFFIC_MS = 1_500;
/** Calls of each method in the graceful burst (all within the trial plan's burst of 100). */
const BURST_PER_METHOD = 20;
const NETWORK = 'ethereum-testnet';
/** What is called, and how: a log query of block 0 (explicit blocks: forwarded as it is). */
const CALLS = {
  eth_chainId: [],
  eth_blockNumber: [],
  eth_getLogs: [{ fromBlock: '0x0', toBlock: '0x0' }],
} as const satisfies Record<string, unknown[]>;
type Method = keyof typeof CALLS;
const METHODS = Object.keys(CALLS) as Method[];
const BURST = BURST_PER_METHOD * METHODS.length;

const priceOf = (method: string) => METHOD_PRICES_MICRO[methodClass(method)];
const sum = (values: Iterable<number>) => [...values].reduce((total, value) => total + value, 0);

/** What the database has billed an application: calls per method, the counters' micro-credits, the spend. */
type Billed = { calls: Record<string, number>; total: number; counterMicro: number; spendMicro: number };

describe('kill -9 of the server’s process group while the gateway counts calls', () => {
  const fault = faultTestServer('gateway-usage-crash');
  let chainPorts: number[] = [];
  /** How long each server took to start (s), for the summary. */
  const starts: number[] = [];
  const startServer = async () => {
    const at = Date.now();
    await fault.start({ chainPorts });
    starts.push((Date.now() - at) / 1000);
  };

  const { json, signIn, signUp } = fault.client;
  const ok = <T>(res: { status: number; body: T; text: string }, status = 200) => {
    expect(res.status, res.text).toBe(status);
    return res.body;
  };

  /** An access token of the application (client credentials, RFC 6749 §4.4), from the server running now. */
  async function applicationToken(clientId: string, clientSecret: string): Promise<string> {
    const res = await fetch(`${fault.base()}/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return (JSON.parse(text) as { access_token: string }).access_token;
  }

  /** One JSON-RPC call through the gateway (a rejection: no answer, the server died). */
  const gatewayCall = (token: string, method: Method, id: number) =>
    json<{ result?: unknown; error?: unknown } | null>(
      'POST',
      `/api/gateway/${NETWORK}`,
      { jsonrpc: '2.0', id, method, params: CALLS[method] },
      { authorization: `Bearer ${token}` },
    );
  const isServed = (res: { status: number; body: { result?: unknown } | null }) =>
    res.status === 200 && res.body !== null && 'result' in res.body;

  /** What the stopped server's database billed the application (read as the other fault tests read it). */
  async function billedTo(applicationId: string): Promise<Billed> {
    const dbh = await fault.openDatabase();
    try {
      const counters = (
        await dbh.query(
          `select method, sum(calls)::text as calls, sum(micro_credits)::text as micro
           from gateway_usage_hourly where application_id = $1 group by method`,
          [applicationId],
        )
      ).rows;
      const [spend] = (
        await dbh.query(
          `select coalesce(sum(micro_credits), 0)::text as micro from application_month_spend where application_id = $1`,
          [applicationId],
        )
      ).rows;
      const calls = Object.fromEntries(counters.map((row) => [String(row.method), Number(row.calls)]));
      return {
        calls,
        total: sum(Object.values(calls)),
        counterMicro: sum(counters.map((row) => Number(row.micro))),
        spendMicro: Number(spend!.micro),
      };
    } finally {
      await dbh.close();
    }
  }

  /** Invariant 3: the spend, and the counters' micro-credits, are each method's calls at its price. */
  function expectPriced(billed: Billed) {
    const priced = sum(Object.entries(billed.calls).map(([method, calls]) => calls * priceOf(method)));
    expect(billed.counterMicro, 'the counters’ micro-credits').toBe(priced);
    expect(billed.spendMicro, 'the application’s month spend').toBe(priced);
  }

  it('bills no call that was not served, keeps the flushes before the kill, and loses nothing on SIGTERM', async () => {
    const started = Date.now();
    chainPorts = await fault.prepare(2);
    await startServer();

    // A user with the local Ethereum testnet activated and a testnet application on it.
    const user = await signUp('gateway-usage-crash');
    const catalogue = ok(
      await json<{ networks: { id: string; code: string }[] }>(
        'GET',
        '/api/integrate/v2/networks',
        undefined,
        user.headers,
      ),
    );
    const networkId = catalogue.networks.find((n) => n.code === NETWORK)!.id;
    const activated = await json('POST', '/api/integrate/v2/networks', { networkIds: [networkId] }, user.headers);
    expect(activated.status, activated.text).toBeLessThan(300);
    const app = ok(
      await json<{ id: string; clientId: string; clientSecret: string }>(
        'POST',
        '/api/application-manager/create-application/',
        {
          name: 'Meter crash',
          callbackUrl: 'https://example.com/cb',
          applicationType: 'testnet',
          networkIds: [networkId],
        },
        user.headers,
      ),
      201,
    );
    /** The calls the running server reports written for the application (its usage route reads the counters). */
    const reportedTotal = async (headers: Record<string, string>) =>
      ok(
        await json<TApplicationUsage>(
          'GET',
          `/api/application-manager/application/${app.id}/usage?days=2`,
          undefined,
          headers,
        ),
      ).total;
    let token = await applicationToken(app.clientId, app.clientSecret);

    // IN_FLIGHT loops call the gateway, each one call after another, until the kill. An answer is
    // counted when it has come back whole; a call the kill cut off rejects and is not.
    const answered = Object.fromEntries(METHODS.map((m) => [m, 0])) as Record<Method, number>;
    const statuses = new Map<number, number>();
    let isKilling = false;
    let failedBeforeKill = 0;
    let firstAnswerAt = 0;
    const loops = Array.from({ length: IN_FLIGHT }, async (_, loop) => {
      for (let i = 0; !isKilling; i++) {
        const method = METHODS[randomInt(METHODS.length)]!;
        let res: Awaited<ReturnType<typeof gatewayCall>>;
        try {
          res = await gatewayCall(token, method, loop * 1_000_000 + i);
        } catch {
          if (!isKilling) failedBeforeKill++;
          return; // the server died
        }
        firstAnswerAt ||= Date.now();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (isServed(res)) answered[method]++;
      }
    });

    // The kill comes once the server reports a flush written, after TRAFFIC_MS of traffic and a
    // random part of a second more, with IN_FLIGHT calls on their way.
    let reportedBeforeKill = 0;
    await vi.waitFor(
      async () => {
        reportedBeforeKill = await reportedTotal(user.headers);
        expect(reportedBeforeKill, 'a flush written').toBeGreaterThan(0);
      },
      { timeout: 20_000, interval: 100 },
    );
    await sleep(Math.max(0, firstAnswerAt + TRAFFIC_MS - Date.now()) + randomInt(0, 1_000)); // a real wait: the traffic
    const trafficMs = Date.now() - firstAnswerAt;
    isKilling = true;
    await fault.server.killGroup();
    await Promise.all(loops);
    expect(failedBeforeKill, 'calls that failed before the kill').toBe(0);
    const answeredTotal = sum(Object.values(answered));
    expect(answeredTotal).toBeGreaterThan(100);

    // A new server on the same data recovers; it is stopped again to read its database.
    await startServer();
    await fault.server.stop();
    const afterKill = await billedTo(app.id);
    // Only the methods called, and (1) none billed more often than it was served before the kill.
    expect(Object.keys(afterKill.calls).every((m) => m in answered)).toBe(true);
    for (const method of METHODS)
      expect(afterKill.calls[method] ?? 0, `${method} billed / served`).toBeLessThanOrEqual(answered[method]);
    // (2) What was flushed before the kill was kept: at least what the server reported written.
    expect(afterKill.total).toBeGreaterThan(0);
    expect(afterKill.total).toBeGreaterThanOrEqual(reportedBeforeKill);
    // (3) Each flush was written whole: the spend is the billed calls at their prices.
    expectPriced(afterKill);

    // The graceful path: BURST calls, all served, then SIGTERM; the next server finds them all billed.
    await startServer();
    token = await applicationToken(app.clientId, app.clientSecret);
    const burst = METHODS.flatMap((method) => Array.from({ length: BURST_PER_METHOD }, () => method));
    const burstLoops = Array.from({ length: 8 }, async () => {
      for (let method = burst.pop(); method; method = burst.pop()) {
        const res = await gatewayCall(token, method, burst.length);
        expect(isServed(res), `${method}: ${res.status} ${res.text}`).toBe(true);
      }
    });
    await Promise.all(burstLoops);
    await fault.server.stop();
    await startServer();
    // The restarted server reports them: its usage route reads the same counters.
    expect(await reportedTotal(await signIn(user.email, user.password))).toBe(afterKill.total + BURST);
    await fault.server.stop();
    const afterStop = await billedTo(app.id);
    // (4) Exactly BURST_PER_METHOD more of each method, at its price.
    for (const method of METHODS)
      expect(afterStop.calls[method], method).toBe((afterKill.calls[method] ?? 0) + BURST_PER_METHOD);
    expect(afterStop.total).toBe(afterKill.total + BURST);
    expectPriced(afterStop);

    const served = METHODS.map((m) => `${m} ${afterKill.calls[m] ?? 0}/${answered[m]}`).join(', ');
    console.log(
      `gateway-usage-crash: ${sum(statuses.values())} calls in ${(trafficMs / 1000).toFixed(1)} s before the kill ` +
        `(by status: ${[...statuses].map(([status, n]) => `${status} ×${n}`).join(', ')}); ` +
        `billed/served after the kill: ${served} (${afterKill.total}/${answeredTotal}; ` +
        `${reportedBeforeKill} reported written before it); ${BURST} more billed after SIGTERM; ` +
        `servers started in ${starts.map((s) => s.toFixed(1)).join(', ')} s; ` +
        `${((Date.now() - started) / 1000).toFixed(0)} s in all`,
    );
  }, 180_000);
});
