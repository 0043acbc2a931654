import { render, screen, within } from '@testing-library/react';
import type { TUsageBucket } from '@connect/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { initTestI18n, TestProviders } from '../../../test/render.tsx';
import { theme } from '../../../theme.ts';
import { CallsByMethodChart, CreditsByApplicationChart } from './usage-charts.tsx';

/*
 * Colour arithmetic for the assertions: sRGB to CIELAB, the CIEDE2000 difference, and the
 * colour-vision deficiencies simulated with Machado et al. (2009) at full severity.
 */
type Rgb = [number, number, number];
const toLinear = (channel: number) => (channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4);
function linearRgb(colour: string): Rgb {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour)?.[1];
  if (!hex) throw new Error(`Not a #rrggbb colour: ${colour}`);
  return [0, 2, 4].map((i) => toLinear(parseInt(hex.slice(i, i + 2), 16) / 255)) as Rgb;
}
const VISIONS: Record<string, number[][]> = {
  typical: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};
const times = (m: number[][], v: Rgb) => m.map((row) => row[0]! * v[0] + row[1]! * v[1] + row[2]! * v[2]) as Rgb;
function lab(rgb: Rgb): Rgb {
  const clamp = rgb.map((c) => Math.min(1, Math.max(0, c))) as Rgb;
  const xyz = times(
    [
      [0.4124 / 0.95047, 0.3576 / 0.95047, 0.1805 / 0.95047],
      [0.2126, 0.7152, 0.0722],
      [0.0193 / 1.08883, 0.1192 / 1.08883, 0.9505 / 1.08883],
    ],
    clamp,
  );
  const [fx, fy, fz] = xyz.map((t) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116)) as Rgb;
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}
const rad = (deg: number) => (deg * Math.PI) / 180;
function deltaE2000([l1, a1, b1]: Rgb, [l2, a2, b2]: Rgb): number {
  const cBar = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
  const g = 0.5 * (1 - Math.sqrt(cBar ** 7 / (cBar ** 7 + 25 ** 7)));
  const [a1p, a2p] = [(1 + g) * a1, (1 + g) * a2];
  const [c1, c2] = [Math.hypot(a1p, b1), Math.hypot(a2p, b2)];
  const hue = (b: number, a: number) => ((Math.atan2(b, a) * 180) / Math.PI + 360) % 360;
  const [h1, h2] = [hue(b1, a1p), hue(b2, a2p)];
  let dh = h2 - h1;
  if (c1 * c2 === 0) dh = 0;
  else if (dh > 180) dh -= 360;
  else if (dh < -180) dh += 360;
  const dH = 2 * Math.sqrt(c1 * c2) * Math.sin(rad(dh / 2));
  const lBar = (l1 + l2) / 2;
  const cBarP = (c1 + c2) / 2;
  let hBar = h1 + h2;
  if (c1 * c2 !== 0) hBar = Math.abs(h1 - h2) > 180 ? (h1 + h2 + (h1 + h2 < 360 ? 360 : -360)) / 2 : (h1 + h2) / 2;
  const t =
    1 -
    0.17 * Math.cos(rad(hBar - 30)) +
    0.24 * Math.cos(rad(2 * hBar)) +
    0.32 * Math.cos(rad(3 * hBar + 6)) -
    0.2 * Math.cos(rad(4 * hBar - 63));
  const sl = 1 + (0.015 * (lBar - 50) ** 2) / Math.sqrt(20 + (lBar - 50) ** 2);
  const sc = 1 + 0.045 * cBarP;
  const sh = 1 + 0.015 * cBarP * t;
  const rt =
    -Math.sin(rad(60 * Math.exp(-(((hBar - 275) / 25) ** 2)))) * 2 * Math.sqrt(cBarP ** 7 / (cBarP ** 7 + 25 ** 7));
  const [x, y, z] = [(l2 - l1) / sl, (c2 - c1) / sc, dH / sh];
  return Math.sqrt(x ** 2 + y ** 2 + z ** 2 + rt * y * z);
}
const luminance = (colour: string) => {
  const [r, g, b] = linearRgb(colour);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string) => {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
};

/** The fill of each series' mark in the chart's legend, by label. */
function legendColours(chart: HTMLElement): Map<string, string> {
  const items = within(chart).getAllByRole('listitem');
  return new Map(
    items.map((item) => [
      item.textContent ?? '',
      item.querySelector('.MuiChartsLegend-mark rect')?.getAttribute('fill') ?? 'none',
    ]),
  );
}

const START = Date.parse('2026-11-23T00:00:00.000Z');
const bucket = (method: string, calls: number, applicationId: string | null = 'app-1'): TUsageBucket => ({
  start: '2026-11-23T00:00:00.000Z',
  applicationId,
  networkId: 'net-1',
  method,
  methodClass: 'read',
  calls,
  credits: calls / 100,
});

describe('the usage charts', () => {
  beforeAll(() => {
    initTestI18n();
  });

  it('give every series of a chart its own colour, told apart with any colour vision and visible on the card', () => {
    // Seven methods: the five most called have their own series, the other two are "Other".
    const methods = ['eth_call', 'eth_getLogs', 'eth_blockNumber', 'eth_getBalance', 'eth_chainId', 'net_version'];
    const buckets = [...methods, 'eth_gasPrice'].map((method, i) => bucket(method, 700 - i * 50));
    render(
      <TestProviders>
        <CallsByMethodChart buckets={buckets} starts={[START]} granularity="day" />
      </TestProviders>,
    );
    const colours = legendColours(screen.getByRole('region', { name: 'Which methods are called most?' }));
    expect([...colours.keys()]).toEqual([...methods.slice(0, 5), 'Other']);
    expect(new Set(colours.values()).size).toBe(6);

    const paper = theme.palette.background.paper;
    for (const [label, colour] of colours) {
      // WCAG 1.4.11: a graphical object at least 3:1 against what is around it.
      expect(contrast(colour, paper), `${label} (${colour}) against the card`).toBeGreaterThanOrEqual(3);
    }
    // No two series alike (the three blues were 3 to 10 apart; 10 is a clear difference at a glance).
    const entries = [...colours];
    for (const [vision, matrix] of Object.entries(VISIONS)) {
      for (const [i, [labelA, a]] of entries.entries()) {
        for (const [labelB, b] of entries.slice(i + 1)) {
          const difference = deltaE2000(lab(times(matrix, linearRgb(a))), lab(times(matrix, linearRgb(b))));
          expect(difference, `${labelA} (${a}) and ${labelB} (${b}) with ${vision} vision`).toBeGreaterThanOrEqual(12);
        }
      }
    }
  });

  it('colour the applications chart from the same palette, in the same order', () => {
    const buckets = [
      bucket('eth_call', 900, 'app-1'),
      bucket('eth_call', 500, 'app-2'),
      bucket('deployment', 50, null),
    ];
    buckets[2] = { ...buckets[2]!, methodClass: 'deployment', credits: 50 };
    render(
      <TestProviders>
        <CallsByMethodChart buckets={buckets.slice(0, 2)} starts={[START]} granularity="day" />
        <CreditsByApplicationChart
          buckets={buckets}
          starts={[START]}
          granularity="day"
          applications={[
            { id: 'app-1', name: 'Payments API' },
            { id: 'app-2', name: 'Indexer' },
          ]}
        />
      </TestProviders>,
    );
    const methods = [...legendColours(screen.getByRole('region', { name: 'Which methods are called most?' })).values()];
    const applications = legendColours(screen.getByRole('region', { name: 'Which applications use the credits?' }));
    expect(new Set(applications.values()).size).toBe(applications.size);
    expect([...applications.values()][0]).toBe(methods[0]);
  });
});
