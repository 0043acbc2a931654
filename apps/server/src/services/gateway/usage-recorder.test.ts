import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { applicationUsageDaily } from '@connect/db';
import { ZCreateApplicationResponse, ZTokenResponse } from '@connect/shared';
import { startTestChain } from '../../../test/chains.ts';
import { createTestApp } from '../../../test/helpers.ts';
import { activate, addNetwork, newAppUser } from '../application-manager/testing.ts';
import type { UsageCount } from './repository.ts';
import { UsageRecorder } from './usage-recorder.ts';

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

const DAY_MS = 86_400_000;

describe('UsageRecorder', () => {
  it('adds up calls per application, network and UTC day, and writes them in one statement', async () => {
    const written: UsageCount[][] = [];
    const recorder = new UsageRecorder({ addUsage: async (rows) => void written.push(rows) });
    const day = Date.parse('2025-03-01T00:00:00Z');
    recorder.record('a', 'n', 1, day + 10);
    recorder.record('a', 'n', 2, day + DAY_MS - 1);
    recorder.record('b', 'n', 1, day + 20);
    recorder.record('a', 'n', 5, day + DAY_MS);
    expect(recorder.pendingCount).toBe(3);
    await recorder.flush();
    expect(written).toEqual([
      [
        { applicationId: 'a', networkId: 'n', day: '2025-03-01', requests: 3 },
        { applicationId: 'b', networkId: 'n', day: '2025-03-01', requests: 1 },
        { applicationId: 'a', networkId: 'n', day: '2025-03-02', requests: 5 },
      ],
    ]);
    expect(recorder.pendingCount).toBe(0);
    await recorder.flush();
    expect(written).toHaveLength(1);
  });

  it('keeps the other rows when one cannot be written (an application deleted meanwhile)', async () => {
    const written: UsageCount[] = [];
    const errors: unknown[] = [];
    const recorder = new UsageRecorder(
      {
        addUsage: async (rows) => {
          if (rows.some((row) => row.applicationId === 'deleted')) throw new Error('foreign key');
          written.push(...rows);
        },
      },
      (error) => errors.push(error),
    );
    recorder.record('deleted', 'n', 1);
    recorder.record('kept', 'n', 2);
    await recorder.flush();
    expect(written.map((row) => [row.applicationId, row.requests])).toEqual([['kept', 2]]);
    expect(errors).toHaveLength(1);
  });
});

describe('platform API usage on shutdown', () => {
  it('writes counted requests when the app closes', async () => {
    // GATEWAY_CACHE=off here: every call goes to the node (and is counted all the same).
    const [t, chain] = await Promise.all([createTestApp({ GATEWAY_CACHE: 'off' }), startTestChain()]);
    try {
      const owner = await newAppUser(t);
      const network = await addNetwork(t, { rpcUrl: chain.rpcUrl, chainId: chain.chainId });
      await activate(t, owner.accountId, network.id);
      const created = ZCreateApplicationResponse.parse(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/application-manager/create-application/',
            headers: owner.headers,
            payload: {
              name: 'Shutdown app',
              callbackUrl: 'https://example.com/cb',
              applicationType: 'testnet',
              networkIds: [network.id],
            },
          })
        ).json(),
      );
      const token = ZTokenResponse.parse(
        (
          await t.app.inject({
            method: 'POST',
            url: '/oauth2/token',
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              authorization: basic(created.clientId, created.clientSecret),
            },
            payload: 'grant_type=client_credentials',
          })
        ).json(),
      ).access_token;
      for (let i = 0; i < 2; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/gateway/${network.id}`,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-gateway-cache']).toBeUndefined();
      }
      await t.app.close();
      const rows = await t.db.db
        .select()
        .from(applicationUsageDaily)
        .where(eq(applicationUsageDaily.applicationId, created.id));
      expect(rows.map((r) => r.requests)).toEqual([2]);
    } finally {
      await t.db.close();
      await chain.stop();
    }
  }, 60_000);
});
