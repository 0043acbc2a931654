// @vitest-environment jsdom
// (jsdom: the chart's bars are drawn from the sizes jsdom gives its elements)
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TApplicationUsage } from '@connect/shared';
import { renderWithProviders } from '../../../test/render.tsx';
import { APPLICATION, createFetchMock, json, SEPOLIA } from '../test/fixtures.ts';
import { UsageChart } from './usage-chart.tsx';
import { UsageSection } from './usage-section.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const USAGE: TApplicationUsage = {
  from: '2026-11-10',
  to: '2026-11-23',
  total: 1_512,
  days: Array.from({ length: 14 }, (_, i) => ({
    day: `2026-11-${String(10 + i).padStart(2, '0')}`,
    requests: i === 13 ? 1_500 : i === 12 ? 12 : 0,
  })),
  networks: [{ networkId: SEPOLIA.id, name: SEPOLIA.name, requests: 1_512 }],
};

describe('UsageChart', () => {
  it('draws a bar a day, named by its title, with every day in a table for screen readers', () => {
    const { container } = renderWithProviders(<UsageChart usage={USAGE} />);
    const chart = screen.getByRole('img', { name: 'Requests per day, last 14 days' });
    expect(screen.getByText('1,512 requests in 14 days')).toBeInTheDocument();
    // One bar per day; the busiest day's bar is the tallest, the empty days' are flat.
    const bars = [...chart.querySelectorAll<SVGRectElement>('rect.MuiBarChart-element')];
    expect(bars).toHaveLength(14);
    const heights = bars.map((bar) => Number(bar.getAttribute('height')));
    expect(Math.max(...heights)).toBe(heights[13]);
    expect(heights[13]).toBeGreaterThan(heights[12]!);
    expect(heights[0]).toBe(0);

    const table = container.querySelector('table')!;
    expect(within(table).getByText('Requests per day, last 14 days')).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(14);
    expect(within(table).getByRole('row', { name: '23.11.2026 1,500' })).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: '10.11.2026 0' })).toBeInTheDocument();
  });
});

describe('UsageSection', () => {
  const mock = createFetchMock();
  beforeEach(() => {
    vi.stubGlobal('fetch', mock.fetchMock);
    mock.route({ [`GET /api/application-manager/application/${APPLICATION.id}/usage`]: () => json(USAGE) });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('leads to the usage page filtered to the application', async () => {
    renderWithProviders(<UsageSection applicationId={APPLICATION.id} />);
    expect(await screen.findByRole('img', { name: 'Requests per day, last 14 days' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See usage by method' })).toHaveAttribute(
      'href',
      `/usage?applicationId=${APPLICATION.id}`,
    );
  });
});
