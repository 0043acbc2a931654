import { configure, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { TestnetSigningField } from './testnet-signing-field.tsx';

// MUI dialogs render slowly in jsdom on a shared runner: wait longer than the default second.
configure({ asyncUtilTimeout: 8_000 });

async function confirmationFor(keyId?: string) {
  renderWithProviders(<TestnetSigningField value={false} onChange={vi.fn()} keyId={keyId} />);
  fireEvent.click(await screen.findByRole('checkbox', { name: /Let the platform sign testnet transactions/ }));
  return (await screen.findByRole('dialog', { name: 'Turn on testnet signing?' })).textContent ?? '';
}

describe('TestnetSigningField: the confirmation (issue 11: a missing value)', { timeout: 30_000 }, () => {
  it('names the application’s signing key', async () => {
    expect(await confirmationFor('key-4f1c2d')).toContain(
      'The platform will sign testnet transactions for this application with its signing key key-4f1c2d.',
    );
  });

  it('says the key comes with the application while it is being registered, with no empty value', async () => {
    const text = await confirmationFor(undefined);
    expect(text).not.toMatch(/signing key\s*\./);
    expect(text).toContain(
      'The platform will sign testnet transactions for this application with a signing key of its own, created with the application.',
    );
  });
});
