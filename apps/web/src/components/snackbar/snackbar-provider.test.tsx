import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n } from '../../test/render.tsx';
import { useSnackbar, type SnackbarMessage } from './snackbar-context.ts';
import { SnackbarProvider } from './snackbar-provider.tsx';

function Trigger({ message }: { message: SnackbarMessage }) {
  const snackbar = useSnackbar();
  return (
    <button type="button" onClick={() => snackbar.show(message)}>
      Show
    </button>
  );
}

function renderSnackbar(message: SnackbarMessage) {
  render(
    <SnackbarProvider>
      <Trigger message={message} />
    </SnackbarProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Show' }));
}

describe('snackbar (spec §2.2, §9)', () => {
  beforeAll(() => {
    initTestI18n();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows a success message by default, at least 200 px wide, and hides it after 2000 ms', () => {
    vi.useFakeTimers();
    renderSnackbar({ title: 'Saved' });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Saved');
    expect(alert.className).toMatch(/colorSuccess|filledSuccess/);
    expect(getComputedStyle(alert).minWidth).toBe('200px');
    act(() => {
      vi.advanceTimersByTime(1_900);
    });
    expect(screen.getByRole('alert')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(200);
    });
    // MUI lets the exit transition finish before unmounting.
    act(() => {
      vi.runAllTimers();
    });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it.each(['error', 'info', 'warning'] as const)('shows the %s type', (type) => {
    renderSnackbar({ type, title: `A ${type}` });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(`A ${type}`);
    expect(alert.className.toLowerCase()).toContain(type);
  });

  it('shows the title, description, link with its title and the end text', () => {
    renderSnackbar({
      type: 'info',
      title: 'Deployment started',
      description: 'Follow it on',
      link: 'https://explorer.example.com/tx/1',
      linkTitle: 'the explorer',
      endText: 'until it is confirmed.',
    });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Deployment started');
    expect(alert).toHaveTextContent('Follow it on the explorer until it is confirmed.');
    expect(screen.getByRole('link', { name: 'the explorer' })).toHaveAttribute(
      'href',
      'https://explorer.example.com/tx/1',
    );
  });

  it('closes with its close control', () => {
    vi.useFakeTimers();
    renderSnackbar({ title: 'Saved' });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    act(() => {
      vi.runAllTimers();
    });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
