import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TContentUpdate } from '@connect/shared';
import { renderWithProviders } from '../../../test/render.tsx';
import { ROTATION_MS, UpdatesCarousel } from './updates-carousel.tsx';

const update = (n: number): TContentUpdate => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  title: `Update ${n}`,
  description: `Details ${n}`,
  imageUrl: null,
  linkUrl: n === 1 ? 'https://example.com/news' : '/my-networks',
  publishedAt: '2026-11-01T12:00:00.000Z',
});
const UPDATES = [update(1), update(2), update(3)];

const visibleSlide = () => screen.getByRole('group', { name: /of 3$/ });

function mockReducedMotion(isReduced: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: isReduced && query.includes('prefers-reduced-motion: reduce'),
      media: query,
      onchange: null,
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      addListener: vi.fn(),
      removeListener: vi.fn(),
      dispatchEvent: vi.fn(),
    })),
  );
}

describe('UpdatesCarousel', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('moves with previous, next and the dots, wrapping around', () => {
    renderWithProviders(<UpdatesCarousel updates={UPDATES} labelledBy="title" />);
    expect(visibleSlide()).toHaveAccessibleName('1 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Next update' }));
    expect(visibleSlide()).toHaveTextContent('Update 2');
    fireEvent.click(screen.getByRole('button', { name: 'Show update 1: Update 1' }));
    expect(visibleSlide()).toHaveTextContent('Update 1');
    fireEvent.click(screen.getByRole('button', { name: 'Previous update' }));
    expect(visibleSlide()).toHaveTextContent('Update 3');
    expect(screen.getByRole('button', { name: 'Show update 3: Update 3' })).toHaveAttribute('aria-current', 'true');
  });

  it('rotates no faster than every 6 seconds', () => {
    renderWithProviders(<UpdatesCarousel updates={UPDATES} labelledBy="title" />);
    expect(ROTATION_MS).toBeGreaterThanOrEqual(6000);
    act(() => vi.advanceTimersByTime(5999));
    expect(visibleSlide()).toHaveTextContent('Update 1');
    act(() => vi.advanceTimersByTime(ROTATION_MS - 5999));
    expect(visibleSlide()).toHaveTextContent('Update 2');
  });

  it('stops rotating while focus is inside, and when paused', () => {
    renderWithProviders(<UpdatesCarousel updates={UPDATES} labelledBy="title" />);
    const next = screen.getByRole('button', { name: 'Next update' });
    act(() => next.focus());
    act(() => vi.advanceTimersByTime(ROTATION_MS * 3));
    expect(visibleSlide()).toHaveTextContent('Update 1');
    act(() => next.blur());
    act(() => vi.advanceTimersByTime(ROTATION_MS));
    expect(visibleSlide()).toHaveTextContent('Update 2');

    fireEvent.click(screen.getByRole('button', { name: 'Stop rotating the updates' }));
    act(() => screen.getByRole('button', { name: 'Start rotating the updates' }).blur());
    act(() => vi.advanceTimersByTime(ROTATION_MS * 3));
    expect(visibleSlide()).toHaveTextContent('Update 2');
    // Stopped, a changed slide is announced.
    expect(visibleSlide().parentElement).toHaveAttribute('aria-live', 'polite');
  });

  it('never rotates when the system asks for reduced motion', () => {
    mockReducedMotion(true);
    renderWithProviders(<UpdatesCarousel updates={UPDATES} labelledBy="title" />);
    expect(screen.queryByRole('button', { name: 'Stop rotating the updates' })).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(ROTATION_MS * 3));
    expect(visibleSlide()).toHaveTextContent('Update 1');
  });

  it('links internal updates through the router and external ones to a new tab', () => {
    renderWithProviders(<UpdatesCarousel updates={UPDATES} labelledBy="title" />);
    expect(screen.getByRole('link', { name: 'Read more: Update 1' })).toHaveAttribute('target', '_blank');
    fireEvent.click(screen.getByRole('button', { name: 'Next update' }));
    const internal = screen.getByRole('link', { name: 'Read more: Update 2' });
    expect(internal).toHaveAttribute('href', '/my-networks');
    expect(internal).not.toHaveAttribute('target');
  });
});
