import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { TestProviders } from '../../test/render.tsx';
import { FilterSelect } from './list-toolbar.tsx';

function StatusFilter() {
  const [value, setValue] = useState<'ACTIVE' | 'DEPRECATED' | ''>('');
  return (
    <FilterSelect
      label="Status"
      value={value}
      onChange={setValue}
      allLabel="All Statuses"
      options={[
        { value: 'ACTIVE', label: 'Active' },
        { value: 'DEPRECATED', label: 'Deprecated' },
      ]}
      minWidth={150}
    />
  );
}

describe('FilterSelect', () => {
  it('reads "All …" when closed with nothing chosen, with its label above, and the choice once chosen', async () => {
    render(
      <TestProviders>
        <StatusFilter />
      </TestProviders>,
    );
    const select = screen.getByRole('combobox', { name: 'Status' });
    expect(select).toHaveTextContent('All Statuses');
    // The label sits above the value (shrunk) instead of over an empty field.
    const label = document.getElementById(select.getAttribute('aria-labelledby') ?? '');
    expect(label).toHaveTextContent('Status');
    expect(label).toHaveAttribute('data-shrink', 'true');

    fireEvent.mouseDown(select);
    fireEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Deprecated' }));
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveTextContent('Deprecated');

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Status' }));
    fireEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'All Statuses' }));
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveTextContent('All Statuses');
  });
});
