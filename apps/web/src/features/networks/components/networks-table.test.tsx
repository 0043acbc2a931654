import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { privateRow } from '../test-data.ts';
import { NetworkDetailsDialog } from './network-details-dialog.tsx';
import { NetworksTable } from './networks-table.tsx';

const REASON = 'The node is not an archive node.';
const rejected = privateRow({
  status: 'REJECTED',
  private: { ...privateRow().private!, reviewedAt: '2026-11-23T10:00:00.000Z', reviewNote: REASON },
});

/** Issue 33 §4: the owner sees the review's result on My networks, and why a network was rejected. */
describe('NetworksTable: a reviewed private network', () => {
  it('shows a rejection’s reason under its status, and the details call it the reason', () => {
    const onDetails = vi.fn();
    renderWithProviders(
      <>
        <h2 id="private">Private networks</h2>
        <NetworksTable networks={[rejected]} labelledBy="private" onDetails={onDetails} />
      </>,
    );
    const row = screen.getByRole('row', { name: /Acme Ledger/ });
    expect(within(row).getByText('Rejected')).toBeInTheDocument();
    expect(within(row).getByText(`Reason: ${REASON}`)).toBeInTheDocument();

    fireEvent.click(within(row).getByRole('button', { name: 'Actions for Acme Ledger' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'View details' }));
    expect(onDetails).toHaveBeenCalledWith(rejected);
  });

  it('names the note of a rejection as its reason in the details, and an approval’s as a review note', () => {
    const { unmount } = renderWithProviders(<NetworkDetailsDialog network={rejected} onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: /Acme Ledger/ });
    expect(within(dialog).getByText('Reason for the rejection')).toBeInTheDocument();
    expect(within(dialog).getByText(REASON)).toBeInTheDocument();
    unmount();

    const approved = privateRow({
      status: 'ACTIVE',
      private: { ...privateRow().private!, reviewedAt: '2026-11-23T10:00:00.000Z', reviewNote: 'Welcome aboard.' },
    });
    renderWithProviders(<NetworkDetailsDialog network={approved} onClose={() => undefined} />);
    expect(screen.getByText('Review note')).toBeInTheDocument();
    expect(screen.queryByText('Reason for the rejection')).not.toBeInTheDocument();
    // Under review, approved, removed: no reason line in the table.
    renderWithProviders(<NetworksTable networks={[approved]} labelledBy="x" onDetails={() => undefined} />);
    expect(screen.queryByText(/^Reason:/)).not.toBeInTheDocument();
  });
});
