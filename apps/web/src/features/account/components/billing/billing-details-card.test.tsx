import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ZBillingDetails, type TBillingDetails } from '@connect/shared';
import { createFetchMock, json } from '../../../../test/fixtures.ts';
import { renderWithProviders } from '../../../../test/render.tsx';
import { BillingDetailsCard } from './billing-details-card.tsx';

vi.mock('../../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

configure({ asyncUtilTimeout: 8_000 });

const PATH = '/api/connect/user/billing-details';

const DETAILS: TBillingDetails = ZBillingDetails.parse({
  companyName: 'Rechenwerk GmbH',
  addressLine1: 'Hauptstraße 1',
  addressLine2: null,
  city: 'Berlin',
  postcode: '10115',
  country: 'DE',
  registrationNumber: 'HRB 12345',
  vatNumber: 'DE123456789',
  vatNumberStatus: 'VALID',
  website: null,
  telephone: null,
  email: 'billing@rechenwerk.example',
  updatedAt: '2026-11-20T12:00:00.000Z',
});

const mock = createFetchMock();

function renderCard() {
  return renderWithProviders(<BillingDetailsCard />);
}

const field = (name: string | RegExp) => screen.getByRole('textbox', { name });

async function chooseCountry(name: RegExp) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: /Country/ }));
  fireEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name }));
}

describe('BillingDetailsCard', { timeout: 40_000 }, () => {
  beforeEach(() => vi.stubGlobal('fetch', mock.fetchMock));
  afterEach(() => {
    mock.fetchMock.mockClear();
    vi.unstubAllGlobals();
  });

  it('shows the details invoices are made out to, with the VAT number’s status', async () => {
    mock.route({ [`GET ${PATH}`]: () => json({ details: DETAILS }) });
    renderCard();
    const card = screen.getByRole('region', { name: 'Billing details' });
    expect(within(card).getByText(/Your invoices are made out to these details/)).toBeInTheDocument();
    expect(await within(card).findByText('Rechenwerk GmbH')).toBeInTheDocument();
    expect(within(card).getByText(/Hauptstraße 1, Berlin, 10115/)).toBeInTheDocument();
    expect(within(card).getByText(/Germany \(DE\)/)).toBeInTheDocument();
    expect(within(card).getByText('DE123456789')).toBeInTheDocument();
    expect(within(card).getByText('Valid')).toBeInTheDocument();
    expect(within(card).getByText('HRB 12345')).toBeInTheDocument();
  });

  it('says "Not checked yet" when the VAT register could not be asked', async () => {
    mock.route({ [`GET ${PATH}`]: () => json({ details: { ...DETAILS, vatNumberStatus: 'UNCHECKED' } }) });
    renderCard();
    expect(await screen.findByText('Not checked yet')).toBeInTheDocument();
  });

  it('validates the form with the shared schema before sending anything', async () => {
    mock.route({ [`GET ${PATH}`]: () => json({ details: null }) });
    renderCard();
    expect(await screen.findByText(/No billing details yet/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Add billing details' }));
    fireEvent.change(field(/VAT number/), { target: { value: '12345' } });
    fireEvent.change(field(/Billing email/), { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter the company or your name.')).toBeInTheDocument();
    expect(screen.getByText('Enter the first line of the address.')).toBeInTheDocument();
    expect(screen.getByText('Enter the town or city.')).toBeInTheDocument();
    expect(screen.getByText('Choose the country.')).toBeInTheDocument();
    expect(
      screen.getByText('A VAT number starts with its two-letter country code, e.g. GB123456789.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Enter a valid email address.')).toBeInTheDocument();
    expect(mock.bodies(`PUT ${PATH}`)).toHaveLength(0);
  });

  it('saves the details in the schema’s form and shows them', async () => {
    mock.route({
      [`GET ${PATH}`]: () => json({ details: null }),
      [`PUT ${PATH}`]: () => json(DETAILS),
    });
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: 'Add billing details' }));
    fireEvent.change(field(/Company or name/), { target: { value: 'Rechenwerk GmbH' } });
    fireEvent.change(field(/Address line 1/), { target: { value: 'Hauptstraße 1' } });
    fireEvent.change(field(/Town or city/), { target: { value: 'Berlin' } });
    fireEvent.change(field(/Postcode/), { target: { value: '10115' } });
    await chooseCountry(/^Germany \(DE\)$/);
    fireEvent.change(field(/VAT number/), { target: { value: 'de 123.456.789' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your billing details have been saved')).toBeInTheDocument();
    expect(mock.bodies(`PUT ${PATH}`)).toEqual([
      {
        companyName: 'Rechenwerk GmbH',
        addressLine1: 'Hauptstraße 1',
        addressLine2: null,
        city: 'Berlin',
        postcode: '10115',
        country: 'DE',
        registrationNumber: null,
        vatNumber: 'DE123456789',
        website: null,
        telephone: null,
        email: null,
      },
    ]);
    expect(await screen.findByText('Valid')).toBeInTheDocument();
  });

  it('puts the server’s refusal of the VAT number under its field', async () => {
    mock.route({
      [`GET ${PATH}`]: () => json({ details: DETAILS }),
      [`PUT ${PATH}`]: () =>
        json(
          {
            status: 422,
            code: 'VAT_NUMBER_INVALID',
            title: 'Unprocessable Entity',
            detail: 'The VAT register does not know this VAT number.',
            invalidParams: [{ name: 'vatNumber', reason: 'The VAT register does not know DE999999999.' }],
          },
          422,
        ),
    });
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    fireEvent.change(field(/VAT number/), { target: { value: 'DE999999999' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const vat = field(/VAT number/);
    await waitFor(() => expect(vat).toHaveAccessibleDescription('The VAT register does not know DE999999999.'));
    expect(vat).toHaveAttribute('aria-invalid', 'true');
  });

  it('puts a VAT refusal without field details under the VAT number too', async () => {
    mock.route({
      [`GET ${PATH}`]: () => json({ details: DETAILS }),
      [`PUT ${PATH}`]: () =>
        json(
          { status: 422, code: 'VAT_NUMBER_INVALID', title: 'Unprocessable Entity', detail: 'Unknown VAT number.' },
          422,
        ),
    });
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(field(/VAT number/)).toHaveAccessibleDescription('Unknown VAT number.'));
  });
});
