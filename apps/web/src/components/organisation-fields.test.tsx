import Grid from '@mui/material/Grid';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { organisationStaticData, type TCompanyDetailsRequest, type TOrganisationStaticData } from '@connect/shared';
import { json } from '../test/fixtures.ts';
import { renderWithProviders } from '../test/render.tsx';
import { OrganisationFields } from './organisation-fields.tsx';

vi.mock('../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

/** What the form holds, shown so the tests can read it. */
function Form({ initial }: { initial: TCompanyDetailsRequest }) {
  const form = useForm<TCompanyDetailsRequest>({ defaultValues: initial });
  const values = form.watch();
  return (
    <>
      <Grid container spacing={2}>
        <OrganisationFields control={form.control} />
      </Grid>
      <output aria-label="organisation name">{values.organisationName}</output>
    </>
  );
}

const EMPTY = {
  organisationName: '',
  organisationLocation: '',
  industry: '',
  companySize: '',
} as unknown as TCompanyDetailsRequest;

const fetchMock = vi.fn<typeof fetch>();
const urls = () => fetchMock.mock.calls.map(([input]) => String(input));
const searches = () => urls().filter((url) => url.startsWith('/api/connect/organisations'));

/** Answers the lists (after `listsReady` when given) and the search from `names`. */
function answer(options: { lists?: TOrganisationStaticData; listsReady?: Promise<void>; names?: string[] } = {}) {
  fetchMock.mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/connect/static-data/organisations') {
      await options.listsReady;
      return json(options.lists ?? organisationStaticData());
    }
    if (url.pathname === '/api/connect/organisations') {
      const term = (url.searchParams.get('search') ?? '').toLowerCase();
      return json({
        organisations: (options.names ?? []).filter((n) => n.toLowerCase().includes(term)).map((name) => ({ name })),
      });
    }
    return json({ status: 404 }, 404);
  });
}

function renderForm(initial: TCompanyDetailsRequest = EMPTY) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return renderWithProviders(<Form initial={initial} />, { queryClient });
}

describe('OrganisationFields', { timeout: 20_000 }, () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  describe('the lists (GET /static-data/organisations)', () => {
    it('shows a placeholder while they load, then the options the server answered', async () => {
      let release!: () => void;
      const listsReady = new Promise<void>((resolve) => (release = resolve));
      answer({
        listsReady,
        lists: { ...organisationStaticData(), industries: ['Banking', 'Energy'], companySizes: ['1-10'] },
      });
      renderForm();
      expect(screen.getByRole('progressbar', { name: 'Loading the choices for Industry' })).toBeInTheDocument();
      expect(screen.getByRole('progressbar', { name: 'Loading the choices for Company size' })).toBeInTheDocument();
      expect(screen.queryByRole('combobox', { name: /Industry/ })).not.toBeInTheDocument();
      release();
      fireEvent.mouseDown(await screen.findByRole('combobox', { name: /Industry/ }));
      // The server's list, not the constants the SPA once had built in.
      expect(
        within(screen.getByRole('listbox'))
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Banking', 'Energy']);
      expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
      expect(urls()).toEqual(['/api/connect/static-data/organisations']);
    });

    it('says when they could not be loaded and loads them again on retry', async () => {
      fetchMock.mockResolvedValueOnce(json({ status: 503, code: 'SERVICE_UNAVAILABLE', detail: 'Down' }, 503));
      renderForm();
      const retry = await screen.findByRole('button', { name: 'Try again' }, { timeout: 5_000 });
      answer();
      fireEvent.click(retry);
      expect(await screen.findByRole('combobox', { name: /Company size/ })).toBeInTheDocument();
    });
  });

  describe('the company name (GET /organisations)', () => {
    it('suggests registered organisations as the user types, and takes the one picked', async () => {
      answer({ names: ['Acme Widgets Ltd', 'Acme Tools plc', 'Other Co'] });
      renderForm();
      const name = screen.getByRole('combobox', { name: /Company name/ });
      fireEvent.change(name, { target: { value: 'A' } });
      // One character is not searched.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(searches()).toEqual([]);
      fireEvent.change(name, { target: { value: 'Acme' } });
      const list = await screen.findByRole('listbox');
      expect(
        within(list)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Acme Widgets Ltd', 'Acme Tools plc']);
      expect(searches()).toEqual(['/api/connect/organisations?search=Acme']);
      fireEvent.click(within(list).getByRole('option', { name: 'Acme Widgets Ltd' }));
      expect(name).toHaveValue('Acme Widgets Ltd');
      expect(screen.getByRole('status', { name: 'organisation name' })).toHaveTextContent('Acme Widgets Ltd');
    });

    it('keeps a name nobody registered, as typed', async () => {
      answer({ names: ['Acme Widgets Ltd'] });
      renderForm();
      const name = screen.getByRole('combobox', { name: /Company name/ });
      fireEvent.change(name, { target: { value: 'Brand New Ventures' } });
      await waitFor(() => expect(searches()).toEqual(['/api/connect/organisations?search=Brand+New+Ventures']));
      expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
      expect(screen.getByRole('status', { name: 'organisation name' })).toHaveTextContent('Brand New Ventures');
    });

    it('asks nothing for the name the form opened with', async () => {
      answer({ names: ['Analytical Engines Ltd'] });
      renderForm({ ...EMPTY, organisationName: 'Analytical Engines Ltd' });
      expect(screen.getByRole('combobox', { name: /Company name/ })).toHaveValue('Analytical Engines Ltd');
      await screen.findByRole('combobox', { name: /Industry/ });
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(searches()).toEqual([]);
    });
  });
});
