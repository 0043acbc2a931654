import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GETTING_STARTED_STEPS, type TGettingStarted } from '@connect/shared';
import { renderWithProviders } from '../../../test/render.tsx';
import { GETTING_STARTED_COLLAPSED_KEY, GettingStarted } from './getting-started.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const USER_ID = '5f0c6a2e-1111-4c3b-9d7e-0a1b2c3d4e5f';
const URL = `/api/connect/user/${USER_ID}/getting-started`;

/** The checklist with the first `done` steps ticked. */
const checklist = (done: number): TGettingStarted => ({
  steps: GETTING_STARTED_STEPS.map((step, i) => ({ step, isDone: i < done })),
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const fetchMock = vi.fn<typeof fetch>();
function answer(response: () => Response) {
  fetchMock.mockImplementation(async (input) =>
    String(input) === URL ? response() : json({ status: 404, title: 'Not Found' }, 404),
  );
}

function renderChecklist() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return renderWithProviders(<GettingStarted userId={USER_ID} />, { route: '/dashboard', queryClient });
}

const card = () => screen.findByRole('region', { name: 'Get started' });
const stepItem = (region: HTMLElement, title: string) =>
  within(region)
    .getByRole('heading', { level: 3, name: new RegExp(`^${title}`) })
    .closest('li')!;

describe('GettingStarted', { timeout: 20_000 }, () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('lists the five steps in order, nothing ticked for a new account, each linking to where it is done', async () => {
    answer(() => json(checklist(0)));
    renderChecklist();
    const region = await card();
    expect(await within(region).findByText('0 of 5 steps done')).toBeInTheDocument();
    expect(
      within(region)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual([
      'Verify your identity (not done yet)',
      'Select networks (not done yet)',
      'Register an application (not done yet)',
      'Make your first gateway call (not done yet)',
      'Deploy your first token (not done yet)',
    ]);
    const links = within(region).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Verify identity', '/quant-flows/kyc'],
      ['Select networks', '/my-networks/select-new-networks'],
      ['Register application', '/my-applications/register-new-application'],
      ['Try the API', '/my-applications'],
      ['Create a token', '/quant-flows/token-flow/deploy/create-new-smart-contract'],
    ]);
  });

  it('ticks the steps the account has done, says so in words, and makes the next one the primary action', async () => {
    answer(() => json(checklist(2)));
    renderChecklist();
    const region = await card();
    expect(await within(region).findByText('2 of 5 steps done')).toBeInTheDocument();
    const verify = stepItem(region, 'Verify your identity');
    expect(within(verify).getByRole('heading')).toHaveTextContent('Verify your identity (done)');
    expect(within(verify).queryByRole('link')).not.toBeInTheDocument();
    expect(within(stepItem(region, 'Select networks')).queryByRole('link')).not.toBeInTheDocument();
    const next = within(stepItem(region, 'Register an application')).getByRole('link');
    expect(next).toHaveClass('MuiButton-contained');
    expect(within(stepItem(region, 'Deploy your first token')).getByRole('link')).not.toHaveClass(
      'MuiButton-contained',
    );
  });

  it('is gone once every step is done', async () => {
    answer(() => json(checklist(5)));
    const view = renderChecklist();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await vi.waitFor(() => expect(view.container).toBeEmptyDOMElement());
  });

  it('folds to its header, and stays folded on the next visit', async () => {
    answer(() => json(checklist(1)));
    const view = renderChecklist();
    const region = await card();
    await within(region).findByText('1 of 5 steps done');
    const hide = within(region).getByRole('button', { name: 'Hide steps' });
    expect(hide).toHaveAttribute('aria-expanded', 'true');
    fireEvent.click(hide);
    expect(within(region).getByRole('button', { name: 'Show steps' })).toHaveAttribute('aria-expanded', 'false');
    expect(localStorage.getItem(GETTING_STARTED_COLLAPSED_KEY)).toBe('true');
    view.unmount();

    renderChecklist();
    const again = await card();
    expect(await within(again).findByText('1 of 5 steps done')).toBeInTheDocument();
    expect(within(again).getByRole('button', { name: 'Show steps' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('has its final shape while the ticks load, so nothing below it moves when they arrive', async () => {
    fetchMock.mockImplementation(() => new Promise<Response>(() => undefined));
    renderChecklist();
    const region = await card();
    const loading = within(region).getByLabelText('Loading your first steps');
    expect(loading).toHaveAttribute('aria-busy', 'true');
    // The steps' titles and descriptions are the portal's own: shown at once, in their final layout.
    expect(
      within(loading)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual([
      'Verify your identity',
      'Select networks',
      'Register an application',
      'Make your first gateway call',
      'Deploy your first token',
    ]);
    expect(within(loading).getByText('Needed before you select networks and for mainnets.')).toBeInTheDocument();
    // Each step's action waits as a skeleton of a small button's height; the progress line and
    // bar take their place too.
    const buttons = [...loading.querySelectorAll<HTMLElement>('li .MuiSkeleton-rounded')];
    expect(buttons.map((skeleton) => skeleton.style.height)).toEqual(Array(5).fill('30.75px'));
    expect(region.querySelectorAll('.MuiLinearProgress-root')).toHaveLength(1);
    expect(region.querySelector('h2 + p .MuiSkeleton-root')).not.toBeNull();
  });

  it('shows skeletons while loading, and an error with a retry', async () => {
    let calls = 0;
    answer(() => (calls++ === 0 ? json({ status: 500, title: 'Internal Server Error' }, 500) : json(checklist(0))));
    renderChecklist();
    expect(screen.getByLabelText('Loading your first steps')).toHaveAttribute('aria-busy', 'true');
    const region = await card();
    expect(await within(region).findByText('Your first steps could not be loaded.')).toBeInTheDocument();
    fireEvent.click(within(region).getByRole('button', { name: 'Try again' }));
    expect(await within(region).findByText('0 of 5 steps done')).toBeInTheDocument();
  });
});
