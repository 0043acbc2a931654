import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initTestI18n, TestProviders } from '../../../test/render.tsx';
import { Identifier } from './identifier.tsx';

const HASH = `0x${'ab'.repeat(32)}`;

function renderIdentifier(explorerUrl: string | null) {
  initTestI18n();
  return render(
    <TestProviders>
      <Identifier value={HASH} what="transaction id" explorerUrl={explorerUrl} />
    </TestProviders>,
  );
}

describe('Identifier', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('links a hash to the network’s explorer in a new tab, without handing it the portal’s window', () => {
    renderIdentifier(`https://etherscan.io/tx/${HASH}`);
    const link = screen.getByRole('link', { name: 'Open transaction id in the explorer' });
    expect(link).toHaveAttribute('href', `https://etherscan.io/tx/${HASH}`);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByText('0xabab…abab')).toHaveAttribute('title', HASH);
  });

  it('shows the hash as copyable text on a network without an explorer (a local chain)', async () => {
    const writeText = vi.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderIdentifier(null);
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Copy transaction id' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(HASH));
  });
});
