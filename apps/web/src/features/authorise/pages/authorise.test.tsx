import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { AuthorisePage } from './authorise.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const fetchMock = vi.fn<typeof fetch>();

function fillForm(dialog: HTMLElement, company: string) {
  fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'Grace Hopper' } });
  fireEvent.change(within(dialog).getByRole('textbox', { name: 'Email' }), { target: { value: 'grace@example.com' } });
  fireEvent.change(within(dialog).getByRole('textbox', { name: 'Company' }), { target: { value: company } });
  fireEvent.change(within(dialog).getByRole('textbox', { name: 'How can we help?' }), {
    target: { value: 'Treasury approvals.' },
  });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Send enquiry' }));
}

// Whole MUI pages render slowly in jsdom; a form journey takes seconds on a loaded runner.
describe('AuthorisePage', { timeout: 20_000 }, () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('presents the product with its benefits', () => {
    renderWithProviders(<AuthorisePage />, { route: '/quant-authorise' });
    expect(screen.getByRole('heading', { level: 1, name: 'Quant Connect Authorise' })).toBeInTheDocument();
    const benefits = screen.getByRole('region', { name: 'Why teams use Authorise' });
    expect(within(benefits).getAllByRole('listitem')).toHaveLength(4);
  });

  it('sends an authorise enquiry with the company, and shows the reference', async () => {
    fetchMock.mockResolvedValue(json({ reference: 'ENQ-ABCDEF12', receivedAt: '2026-11-22T10:00:00.000Z' }));
    renderWithProviders(<AuthorisePage />, { route: '/quant-authorise' });
    fireEvent.click(screen.getAllByRole('button', { name: 'Contact us' })[0]!);
    const dialog = screen.getByRole('dialog', { name: 'Contact us about Authorise' });
    expect(within(dialog).queryByRole('textbox', { name: 'Subject' })).not.toBeInTheDocument();
    fillForm(dialog, 'Compilers Inc');
    expect(await within(dialog).findByText(/ENQ-ABCDEF12/)).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/connect/contact-us-authorise');
    expect(JSON.parse(String(init?.body))).toEqual({
      name: 'Grace Hopper',
      email: 'grace@example.com',
      company: 'Compilers Inc',
      description: 'Treasury approvals.',
    });
  });

  it('requires the company', async () => {
    renderWithProviders(<AuthorisePage />, { route: '/quant-authorise' });
    fireEvent.click(screen.getAllByRole('button', { name: 'Contact us' })[0]!);
    const dialog = screen.getByRole('dialog', { name: 'Contact us about Authorise' });
    fillForm(dialog, '');
    expect(await within(dialog).findByText('This field is required.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows exactly the spec’s message when sending fails', async () => {
    fetchMock.mockResolvedValue(json({ status: 400, title: 'Bad Request' }, 400));
    renderWithProviders(<AuthorisePage />, { route: '/quant-authorise' });
    fireEvent.click(screen.getAllByRole('button', { name: 'Contact us' })[0]!);
    const dialog = screen.getByRole('dialog', { name: 'Contact us about Authorise' });
    fillForm(dialog, 'Compilers Inc');
    expect(await within(dialog).findByText('Something went wrong, please close and try again.')).toBeInTheDocument();
  });
});
