import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { AppBreadcrumbs } from './app-breadcrumbs.tsx';
import { ADMIN_ROUTES } from './test-utils.tsx';

function renderAt(route: string) {
  const { unmount } = renderWithProviders(<AppBreadcrumbs routes={ADMIN_ROUTES} />, { route, path: '*' });
  return Object.assign(screen.getByRole('navigation', { name: 'Breadcrumb' }), { unmount });
}

describe('AppBreadcrumbs', () => {
  it('shows one crumb per segment; the last is the current page, not a link', () => {
    const nav = renderAt('/support/faq');
    expect(
      within(nav)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Support', 'FAQ']);
    expect(within(nav).getByRole('link', { name: 'Support' })).toHaveAttribute('href', '/support');
    const current = within(nav).getByText('FAQ');
    expect(current).toHaveAttribute('aria-current', 'page');
    expect(within(nav).queryByRole('link', { name: 'FAQ' })).not.toBeInTheDocument();
  });

  it('writes seeq as SeeQ and turns hyphens into spaces', () => {
    const nav = renderAt('/seeq-flows/token-flow');
    expect(
      within(nav)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Seeq flows', 'Token flow']);
    nav.unmount();
    const seeq = renderAt('/seeq/multi-ledger-rollup');
    expect(
      within(seeq)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['SeeQ', 'Multi ledger rollup']);
  });

  it('does not link a segment that is not a page of the user', () => {
    const nav = renderAt('/invoices/my-invoices');
    expect(within(nav).getByText('Invoices')).not.toHaveAttribute('href');
    expect(within(nav).queryAllByRole('link')).toHaveLength(0);
    expect(within(nav).getByText('My invoices')).toHaveAttribute('aria-current', 'page');
  });
});
