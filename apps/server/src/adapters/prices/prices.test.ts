import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { penceToQntWei } from '../../lib/prices.ts';
import { FeedPrices } from './feed.ts';
import { FixedPrices } from './fixed.ts';

describe('QNT prices', () => {
  it('converts pence to QNT wei exactly, rounded up to the wei', () => {
    expect(penceToQntWei(600_000, '80')).toBe(75n * 10n ** 18n);
    expect(penceToQntWei(100, '3')).toBe(333_333_333_333_333_334n);
    expect(penceToQntWei(0, '80')).toBe(0n);
    expect(() => penceToQntWei(100, '0')).toThrow(RangeError);
  });

  it('answers the configured price as the embedded default', async () => {
    const quote = await new FixedPrices('80.5').qntInGbp();
    expect(quote).toMatchObject({ gbpPerQnt: '80.5', source: 'fixed' });
  });

  describe('a price feed', () => {
    let server: http.Server;
    let answer: { status: number; body: unknown };
    let calls = 0;
    let url = '';
    beforeAll(async () => {
      server = http.createServer((_req, res) => {
        calls++;
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/simple/price`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('reads the pounds per QNT with its time, and reads again only after 30 s', async () => {
      let now = Date.now();
      const updated = Math.floor(now / 1000) - 60;
      answer = { status: 200, body: { 'quant-network': { gbp: 81.234, last_updated_at: updated } } };
      const feed = new FeedPrices(url, () => now);
      calls = 0;
      const quote = await feed.qntInGbp();
      expect(quote).toMatchObject({ gbpPerQnt: '81.234', source: 'feed' });
      expect(quote.at.getTime()).toBe(updated * 1000);
      await feed.qntInGbp();
      expect(calls).toBe(1);
      now += 31_000;
      await feed.qntInGbp();
      expect(calls).toBe(2);
    });

    it('refuses a stale, missing or failed price', async () => {
      const now = Date.now();
      answer = { status: 200, body: { 'quant-network': { gbp: 80, last_updated_at: Math.floor(now / 1000) - 3_600 } } };
      await expect(new FeedPrices(url).qntInGbp()).rejects.toThrow(/from/);
      answer = { status: 200, body: {} };
      await expect(new FeedPrices(url).qntInGbp()).rejects.toThrow(/no QNT price/);
      answer = { status: 500, body: {} };
      await expect(new FeedPrices(url).qntInGbp()).rejects.toThrow(/500/);
    });
  });
});
