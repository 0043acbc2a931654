import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { OUTBOX_REFRESH_MS } from '../api/get-outbox.ts';
import { DevMailboxPage } from './dev-mailbox.tsx';

const message = (id: string, code: string | null, createdAt: Date) => ({
  id,
  to: 'ada@example.com',
  kind: code ? 'SIGN_UP_CODE' : 'INVITATION',
  subject: code ? `Your verification code ${code}` : 'You are invited',
  text: code ? `Your verification code is ${code}.` : 'Welcome aboard.',
  code,
  createdAt: createdAt.toISOString(),
});

// The server lists oldest first.
const OLDER = message('00000000-0000-4000-8000-000000000001', '111111', new Date(2026, 10, 22, 9, 5));
const NEWER = message('00000000-0000-4000-8000-000000000002', '222222', new Date(2026, 10, 22, 14, 30));

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const fetchMock = vi.fn<typeof fetch>();

// Whole MUI pages render slowly in jsdom; a form journey takes seconds on a loaded runner.
describe('DevMailboxPage', { timeout: 20_000 }, () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('lists the messages for the address in ?to=, newest first, with their codes and times', async () => {
    fetchMock.mockResolvedValue(json({ messages: [OLDER, NEWER] }));
    renderWithProviders(<DevMailboxPage />, { route: '/dev/mailbox?to=ada@example.com', path: '/dev/mailbox' });

    expect(screen.getByRole('textbox', { name: 'Email address' })).toHaveValue('ada@example.com');
    const articles = await screen.findAllByRole('article');
    expect(articles.map((article) => within(article).getByTestId('message-code').textContent)).toEqual([
      '222222',
      '111111',
    ]);
    expect(within(articles[0]!).getByText('22.11.2026, 14:30')).toBeInTheDocument();
    expect(within(articles[0]!).getByText('Your verification code is 222222.')).toBeInTheDocument();
    expect(within(articles[0]!).getByRole('button', { name: 'Copy the code' })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/dev/outbox?to=ada%40example.com', expect.anything());
    expect(screen.getByText('Sandbox')).toBeInTheDocument();
  });

  it('says so when the address has no messages yet', async () => {
    fetchMock.mockResolvedValue(json({ messages: [] }));
    renderWithProviders(<DevMailboxPage />, { route: '/dev/mailbox?to=nobody@example.com', path: '/dev/mailbox' });
    expect(await screen.findByText('No messages for this address yet.')).toBeInTheDocument();
  });

  it('looks up the address typed in', async () => {
    fetchMock.mockResolvedValue(json({ messages: [NEWER] }));
    renderWithProviders(<DevMailboxPage />, { route: '/dev/mailbox', path: '/dev/mailbox' });
    expect(screen.getByText('Enter an email address to see the messages sent to it.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.change(screen.getByRole('textbox', { name: 'Email address' }), {
      target: { value: ' Ada@Example.com ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Show messages' }));
    expect(await screen.findByText('222222')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/dev/outbox?to=ada%40example.com', expect.anything());
  });

  it('refreshes every 5 seconds while open', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fetchMock.mockResolvedValueOnce(json({ messages: [] })).mockResolvedValue(json({ messages: [NEWER] }));
    renderWithProviders(<DevMailboxPage />, { route: '/dev/mailbox?to=ada@example.com', path: '/dev/mailbox' });
    expect(await screen.findByText('No messages for this address yet.')).toBeInTheDocument();
    expect(OUTBOX_REFRESH_MS).toBe(5000);
    await act(() => vi.advanceTimersByTimeAsync(OUTBOX_REFRESH_MS));
    expect(await screen.findByText('222222')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('is a not-found page where the dev mailbox is off', () => {
    renderWithProviders(<DevMailboxPage />, {
      route: '/dev/mailbox?to=ada@example.com',
      path: '/dev/mailbox',
      config: { devMailbox: false },
    });
    expect(screen.getByRole('heading', { name: '404 Page Not Found!' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
