import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createTestApp, type TestContext } from './helpers.ts';

/** The lines an app logs, parsed (pino writes one JSON object per line). */
function logLines() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: { level: 'info', stream } };
}

const status = (t: TestContext, remoteAddress: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: '/api/connect/status', remoteAddress, headers }).then((res) => res.statusCode);

/**
 * Issue 27 §5: who the client is. By default the client is the socket's peer: X-Forwarded-For is
 * believed only from the proxies TRUST_PROXY names, so a client cannot choose the address it is
 * logged and rate-limited as.
 */
describe('the client address', () => {
  describe('without TRUST_PROXY', () => {
    let t: TestContext;
    const log = logLines();
    beforeAll(async () => {
      t = await createTestApp({ RATE_LIMIT_MAX: '2' }, { logger: log.logger });
    });
    afterAll(() => t?.close());

    it('gives no fresh rate-limit budget to a client that claims another address', async () => {
      expect([await status(t, '10.1.1.1'), await status(t, '10.1.1.1')]).toEqual([200, 200]);
      expect(await status(t, '10.1.1.1')).toBe(429);
      expect(await status(t, '10.1.1.1', { 'x-forwarded-for': '203.0.113.77' })).toBe(429);
      expect(await status(t, '10.1.1.1', { 'x-forwarded-for': '203.0.113.78, 198.51.100.1' })).toBe(429);
      // Another machine still has its own budget.
      expect(await status(t, '10.1.1.2')).toBe(200);
    });

    it('logs the socket’s address, not the one the request claims', async () => {
      await status(t, '10.9.9.9', { 'x-forwarded-for': '203.0.113.77' });
      const incoming = log.lines.filter((line) => line.msg === 'incoming request');
      const addresses = incoming.map((line) => (line.req as { remoteAddress?: string }).remoteAddress);
      expect(addresses).toContain('10.9.9.9');
      expect(addresses).not.toContain('203.0.113.77');
    });
  });

  describe('behind a trusted proxy (TRUST_PROXY)', () => {
    let t: TestContext;
    beforeAll(async () => {
      t = await createTestApp({ RATE_LIMIT_MAX: '2', TRUST_PROXY: '10.0.0.1, 10.2.0.0/16' });
    });
    afterAll(() => t?.close());

    it('counts each client the proxy forwards for, and ignores the header from anyone else', async () => {
      const viaProxy = { 'x-forwarded-for': '203.0.113.77' };
      expect([await status(t, '10.0.0.1', viaProxy), await status(t, '10.0.0.1', viaProxy)]).toEqual([200, 200]);
      expect(await status(t, '10.0.0.1', viaProxy)).toBe(429);
      // Another client behind the same proxy (or a proxy of the named range) has its own budget.
      expect(await status(t, '10.2.3.4', { 'x-forwarded-for': '203.0.113.78' })).toBe(200);
      // An address the proxy did not add (the client's own claim, first in the list) changes nothing.
      expect(await status(t, '10.0.0.1', { 'x-forwarded-for': '198.51.100.9, 203.0.113.77' })).toBe(429);
      // A peer that is not a trusted proxy is itself the client, whatever it claims.
      expect([await status(t, '10.0.0.9', viaProxy), await status(t, '10.0.0.9', viaProxy)]).toEqual([200, 200]);
      expect(await status(t, '10.0.0.9', { 'x-forwarded-for': '203.0.113.99' })).toBe(429);
    });
  });

  it('reads TRUST_PROXY as a list of addresses and CIDRs, off by default', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.2.0.0/16 ,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.2.0.0/16',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    // Trusting every peer, or a bare hop count, would let any client choose its address again.
    for (const value of ['true', 'on', '1', '2', '*']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY: name the proxies/);
    }
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.1, proxy.internal, 10.0.0.0/33' })).toThrow(
      /TRUST_PROXY: not an address, CIDR .*: proxy\.internal, 10\.0\.0\.0\/33/,
    );
  });
});
