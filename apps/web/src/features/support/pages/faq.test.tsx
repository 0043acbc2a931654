import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { FaqPage } from './faq.tsx';

// Whole MUI pages render slowly in jsdom; a form journey takes seconds on a loaded runner.
describe('FaqPage', { timeout: 20_000 }, () => {
  it('groups the questions by topic', () => {
    const { container } = renderWithProviders(<FaqPage />, { route: '/support/faq' });
    // A CSS query: role queries walk the whole accessibility tree of this long page, slowly in jsdom.
    const topics = [...container.querySelectorAll('h2')].map((heading) => heading.textContent);
    expect(topics).toEqual([
      'Signing in and two-factor authentication',
      'Applications and client secrets',
      'Networks',
      'Tokens',
      'Plans and credits',
      'Invoices',
      'Rewards',
      'Did not find your answer?',
    ]);
  });

  it('opens an answer from its question', () => {
    renderWithProviders(<FaqPage />, { route: '/support/faq' });
    const question = screen.getByRole('button', { name: 'Where can I see my client secret again?' });
    expect(question).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(question);
    expect(question).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('region', { name: 'Where can I see my client secret again?' })).toHaveTextContent(
      /shown once/,
    );
  });

  it('has no question without an answer', () => {
    renderWithProviders(<FaqPage />, { route: '/support/faq' });
    // A missing text would show its key (faq.topic.item.a) instead.
    expect(document.body.textContent).not.toMatch(/faq\.\w+\.\w+/);
  });
});
