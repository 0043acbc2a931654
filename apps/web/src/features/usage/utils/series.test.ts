import { describe, expect, it } from 'vitest';
import { BUCKETS, INDEXER, PAYMENTS, REPORT } from '../test/fixtures.ts';
import { usageWindow } from './periods.ts';
import { breakdown, bucketsInWindow, callsByMethod, creditsByApplication, DEPLOYMENTS, OTHER } from './series.ts';

const NOW = Date.parse('2026-11-23T10:30:00.000Z');
const { starts } = usageWindow('7d', undefined, NOW);

describe('usageWindow', () => {
  it('asks for UTC days and lists every bucket of the period, oldest first', () => {
    expect(usageWindow('7d', undefined, NOW).query).toEqual({
      from: '2026-11-17',
      to: '2026-11-23',
      granularity: 'day',
    });
    expect(usageWindow('30d', PAYMENTS.id, NOW).query).toEqual({
      from: '2026-10-25',
      to: '2026-11-23',
      granularity: 'day',
      applicationId: PAYMENTS.id,
    });
    expect(usageWindow('month', undefined, NOW).query.from).toBe('2026-11-01');
    expect(starts).toHaveLength(7);
    expect(new Date(starts[0]!).toISOString()).toBe('2026-11-17T00:00:00.000Z');
  });

  it('gives the last 24 hours by hour, ending with the current hour', () => {
    const window = usageWindow('24h', undefined, NOW);
    expect(window.query).toEqual({ from: '2026-11-22', to: '2026-11-23', granularity: 'hour' });
    expect(window.starts).toHaveLength(24);
    expect(new Date(window.starts[0]!).toISOString()).toBe('2026-11-22T11:00:00.000Z');
    expect(new Date(window.starts[23]!).toISOString()).toBe('2026-11-23T10:00:00.000Z');
  });
});

describe('series', () => {
  it('zero-fills calls by method and leaves deployments out', () => {
    const series = callsByMethod(BUCKETS, starts);
    expect(series.map((s) => s.key)).toEqual(['eth_blockNumber', 'eth_call', 'eth_getLogs']);
    expect(series[0]!.data).toEqual([0, 0, 0, 0, 0, 12_000, 0]);
    expect(series[1]!.data).toEqual([0, 0, 0, 0, 0, 0, 3_000]);
  });

  it('keeps the top methods and gathers the rest as Other', () => {
    const series = callsByMethod(BUCKETS, starts, 1);
    expect(series.map((s) => s.key)).toEqual(['eth_blockNumber', OTHER]);
    expect(series[1]!.data[6]).toBe(3_400);
  });

  it('sums credits by application without floating drift, deployments apart', () => {
    const many = Array.from({ length: 1000 }, () => ({ ...BUCKETS[1]!, credits: 0.0001 }));
    const [only] = creditsByApplication(many, starts);
    expect(only!.data[5]).toBe(0.1);
    const series = creditsByApplication(BUCKETS, starts);
    expect(series.map((s) => s.key)).toEqual([DEPLOYMENTS, PAYMENTS.id, INDEXER.id]);
    expect(series[1]!.data).toEqual([0, 0, 0, 0, 0, 1.2, 0.2]);
  });

  it('breaks the credits down per application, network and method with their share', () => {
    const { rows, calls, credits } = breakdown(BUCKETS);
    expect(calls).toBe(15_401);
    expect(credits).toBe(51.7);
    const deployment = rows.find((row) => row.isDeployment)!;
    expect(deployment.share).toBeCloseTo(50 / 51.7, 6);
    expect(rows).toHaveLength(4);
  });

  it('drops the buckets before the window (the day before in the last 24 hours)', () => {
    const window = usageWindow('24h', undefined, NOW);
    const report = {
      ...REPORT,
      buckets: [
        { ...BUCKETS[1]!, start: '2026-11-22T10:00:00.000Z' },
        { ...BUCKETS[1]!, start: '2026-11-22T11:00:00.000Z' },
      ],
    };
    expect(bucketsInWindow(report, window.starts).map((b) => b.start)).toEqual(['2026-11-22T11:00:00.000Z']);
  });
});
