import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ANNUAL_STANDARD, CATALOGUE, TRIAL } from '../../../test/plans.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { PlansTable } from './plans-table.tsx';

describe('PlansTable', () => {
  it('sells the gateway rate as the gateway enforces it: per network, shared by the account’s applications', () => {
    renderWithProviders(
      <PlansTable
        groups={CATALOGUE.groups}
        subscription={TRIAL}
        selectedId={null}
        onSelect={vi.fn()}
        onContactUs={vi.fn()}
      />,
    );
    const row = screen.getByRole('row', { name: /gateway rate limit/i });
    // The row says what the figure counts: every call on one network, all of the account's applications together.
    expect(within(row).getByRole('rowheader')).toHaveTextContent(
      'Gateway rate limitOn each network, shared by all your applications; batches of up to 100 calls',
    );
    const cells = within(row).getAllByRole('cell');
    const column = CATALOGUE.groups.flatMap((group) => group.tiers).indexOf(ANNUAL_STANDARD);
    expect(ANNUAL_STANDARD.allowances.rateLimit).toBe(50);
    expect(cells[column]).toHaveTextContent('50 requests a second per network');
    expect(cells.map((cell) => cell.textContent)).toEqual([
      '25 requests a second per network',
      '100 requests a second per network',
      '50 requests a second per network',
      '200 requests a second per network',
    ]);
  });
});
