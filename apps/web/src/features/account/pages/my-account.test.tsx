import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { organisationStaticData, type TMfaStatus, type TUser } from '@connect/shared';
import { changePassword, disableTotp } from '../../../lib/auth.ts';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { session } from '../../../lib/storage.ts';
import { createFetchMock, json, TEST_USER as USER } from '../../../test/fixtures.ts';
import { TRIAL } from '../../../test/plans.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { MyAccountPage } from './my-account.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
  changePassword: vi.fn(),
  disableTotp: vi.fn(),
}));

const TERMS = {
  version: '2026-10-01',
  title: 'Terms and Conditions',
  url: 'https://example.com/terms/',
  publishedAt: '2026-10-01T12:00:00.000Z',
};
const ACTIVE: TMfaStatus = { mfaSetup: true, mfaConfirm: true, userMfaStatus: 'ACTIVE' };
const DISABLED: TMfaStatus = { mfaSetup: false, mfaConfirm: false, userMfaStatus: 'DISABLED' };

/** Answers `METHOD path` from the handlers; the page's reads have defaults. */
const {
  fetchMock,
  route,
  bodies: requests,
} = createFetchMock(() => ({
  'GET /api/connect/terms-conditions/version': () => json(TERMS),
  'GET /api/connect/user/mfa-status': () => json(ACTIVE),
  [`GET /api/connect/user/${USER.id}`]: () => json(USER),
  'GET /api/account-plan/subscription': () => json(TRIAL),
  'GET /api/connect/user/billing-details': () => json({ details: null }),
  'GET /api/connect/static-data/organisations': () => json(organisationStaticData()),
}));

function renderPage(user: TUser = USER) {
  session.setMarker(user.id, user.role);
  queryClient.setQueryData(currentUserQuery(user.id).queryKey, user);
  return renderWithProviders(<MyAccountPage />, {
    route: '/my-account',
    queryClient,
    routes: [{ path: '/mfa-setup', element: <p>MFA set-up page</p> }],
  });
}

// Whole MUI pages render slowly in jsdom; a form journey takes seconds on a loaded runner.
describe('MyAccountPage', { timeout: 20_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    route({});
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.mocked(changePassword).mockReset();
    vi.mocked(disableTotp).mockReset();
    vi.unstubAllGlobals();
    queryClient.clear();
    sessionStorage.clear();
  });

  it('shows the sections of the profile with the user’s details', async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Profile' })).toBeInTheDocument();
    const personal = screen.getByRole('region', { name: 'Personal details' });
    expect(within(personal).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(personal).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(personal).getByText('Individual')).toBeInTheDocument();
    // The large avatar (spec §2.2: 96 px) with the user's initials.
    const avatar = within(personal).getByText('AL');
    expect(getComputedStyle(avatar).width).toBe('96px');
    const business = screen.getByRole('region', { name: 'Business details' });
    expect(within(business).getByRole('combobox', { name: 'Company name' })).toHaveValue('Analytical Engines Ltd');
    const terms = screen.getByRole('region', { name: 'Terms and conditions' });
    expect(within(terms).getByText('2026-10-01')).toBeInTheDocument();
    expect(await within(terms).findByText('01.10.2026')).toBeInTheDocument();
    const plan = screen.getByRole('region', { name: 'Plan' });
    expect(await within(plan).findByText('Your free trial is active.')).toBeInTheDocument();
    // Issue 18: who invoices are made out to.
    const billing = screen.getByRole('region', { name: 'Billing details' });
    expect(await within(billing).findByRole('button', { name: 'Add billing details' })).toBeInTheDocument();
    for (const name of ['Security', 'Communication', 'Support enquiries']) {
      expect(screen.getByRole('region', { name })).toBeInTheDocument();
    }
  });

  describe('personal details', () => {
    it('changes the names alone with PUT /user/identity', async () => {
      route({ 'PUT /api/connect/user/identity': (body) => json({ ...USER, ...(body as object) }) });
      renderPage();
      const personal = screen.getByRole('region', { name: 'Personal details' });
      fireEvent.click(within(personal).getByRole('button', { name: 'Edit name' }));
      fireEvent.change(within(personal).getByRole('textbox', { name: 'First name' }), {
        target: { value: 'Augusta Ada' },
      });
      fireEvent.click(within(personal).getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Augusta Ada Lovelace')).toBeInTheDocument();
      expect(requests('PUT /api/connect/user/identity')).toEqual([{ firstName: 'Augusta Ada', lastName: 'Lovelace' }]);
      expect(requests('PUT /api/connect/user')).toEqual([]);
    });

    it('saves the names of a user whose profile is not complete yet', async () => {
      const incomplete = { ...USER, organisationLocation: null, industry: null, companySize: null, hearAboutUs: null };
      route({ 'PUT /api/connect/user/identity': (body) => json({ ...incomplete, ...(body as object) }) });
      renderPage(incomplete);
      const personal = screen.getByRole('region', { name: 'Personal details' });
      fireEvent.click(within(personal).getByRole('button', { name: 'Edit name' }));
      fireEvent.change(within(personal).getByRole('textbox', { name: 'Last name' }), { target: { value: 'King' } });
      fireEvent.click(within(personal).getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Ada King')).toBeInTheDocument();
      expect(requests('PUT /api/connect/user/identity')).toEqual([{ firstName: 'Ada', lastName: 'King' }]);
    });

    it('puts a refusal of the server under the name it names', async () => {
      const reason = 'Your name cannot be changed after your identity has been verified.';
      route({
        'PUT /api/connect/user/identity': () =>
          json(
            { status: 409, code: 'NAMES_LOCKED', detail: reason, invalidParams: [{ name: 'lastName', reason }] },
            409,
          ),
      });
      renderPage();
      const personal = screen.getByRole('region', { name: 'Personal details' });
      fireEvent.click(within(personal).getByRole('button', { name: 'Edit name' }));
      fireEvent.change(within(personal).getByRole('textbox', { name: 'Last name' }), { target: { value: 'King' } });
      fireEvent.click(within(personal).getByRole('button', { name: 'Save' }));
      await waitFor(() =>
        expect(within(personal).getByRole('textbox', { name: 'Last name' })).toHaveAccessibleDescription(reason),
      );
    });

    it('keeps the names read-only after identity verification, and says why', () => {
      renderPage({ ...USER, onfidoApplicantStatus: 'VERIFIED' });
      expect(screen.queryByRole('button', { name: 'Edit name' })).not.toBeInTheDocument();
      expect(screen.getByText(/must match your identity document and can no longer be changed/)).toBeInTheDocument();
      expect(screen.getByText('Verified')).toBeInTheDocument();
    });
  });

  it('saves the business details', async () => {
    route({ 'PUT /api/connect/user/company-details': (body) => json({ ...USER, ...(body as object) }) });
    renderPage();
    const business = screen.getByRole('region', { name: 'Business details' });
    const save = within(business).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    fireEvent.change(within(business).getByRole('textbox', { name: 'Company location' }), {
      target: { value: 'Ireland' },
    });
    fireEvent.click(save);
    expect(await screen.findByText('Your business details have been saved')).toBeInTheDocument();
    expect(requests('PUT /api/connect/user/company-details')).toEqual([
      {
        organisationName: 'Analytical Engines Ltd',
        organisationLocation: 'Ireland',
        industry: 'Technology',
        companySize: '11-50',
      },
    ]);
  });

  describe('change password', () => {
    function fillPasswords(confirm = 'N3w-Secret!') {
      fireEvent.change(screen.getByLabelText(/^Current password/), { target: { value: 'Old-Secret1!' } });
      fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'N3w-Secret!' } });
      fireEvent.change(screen.getByLabelText(/^Confirm new password/), { target: { value: confirm } });
      fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    }

    it.each([
      ['NotAuthorizedException', 'Incorrect username or password.', 'The current password is not correct.'],
      [
        'LimitExceededException',
        'Attempt limit exceeded, please try after some time.',
        'Attempt limit exceeded, please try later.',
      ],
      [
        'InvalidPasswordException',
        'Password does not conform to policy',
        'Password must be at least 8 characters and contain a lowercase letter, an uppercase letter, a number and a symbol.',
      ],
    ])('shows the message for %s', async (name, providerMessage, shown) => {
      vi.mocked(changePassword).mockRejectedValue(Object.assign(new Error(providerMessage), { name }));
      renderPage();
      fillPasswords();
      expect(await screen.findByText(shown)).toBeInTheDocument();
      expect(changePassword).toHaveBeenCalledWith('Old-Secret1!', 'N3w-Secret!');
    });

    it('checks the confirmation and the policy before asking the identity provider', async () => {
      renderPage();
      fillPasswords('Different-1!');
      expect(await screen.findByText('The passwords do not match.')).toBeInTheDocument();
      fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'short' } });
      fireEvent.blur(screen.getByLabelText(/^New password/));
      expect(
        await screen.findByText(
          'Password must be at least 8 characters and contain a lowercase letter, an uppercase letter, a number and a symbol.',
        ),
      ).toBeInTheDocument();
      expect(changePassword).not.toHaveBeenCalled();
    });

    it('ticks off the password hints as they are met', () => {
      renderPage();
      fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'abcdefgh' } });
      expect(screen.getByText(/At least 8 characters/)).toHaveTextContent('(met)');
      expect(screen.getByText(/A lowercase letter/)).toHaveTextContent('(met)');
      expect(screen.getByText(/An uppercase letter/)).toHaveTextContent('(not met yet)');
    });

    it('confirms a changed password and clears the form', async () => {
      vi.mocked(changePassword).mockResolvedValue(undefined);
      renderPage();
      fillPasswords();
      expect(await screen.findByText('Your password has been changed')).toBeInTheDocument();
      expect(screen.getByLabelText(/^Current password/)).toHaveValue('');
    });
  });

  describe('multi-factor authentication', () => {
    it('shows the status from GET /user/mfa-status', async () => {
      renderPage();
      expect(await screen.findByText('MFA is active')).toBeInTheDocument();
      expect(requests('GET /api/connect/user/mfa-status')).toHaveLength(1);
      expect(screen.queryByRole('link', { name: 'Set up' })).not.toBeInTheDocument();
    });

    // The longest journey of the page (two dialogs, two status reads): room for a busy machine.
    it('asks for confirmation naming the account before disabling', { timeout: 60_000 }, async () => {
      vi.mocked(disableTotp).mockResolvedValue(undefined);
      renderPage();
      // Generous: the MFA status arrives after the user (a second request), slow on a busy machine.
      fireEvent.click(await screen.findByRole('button', { name: 'Disable' }, { timeout: 10_000 }));
      const dialog = screen.getByRole('dialog', { name: 'Disable two-factor authentication?' });
      expect(dialog).toHaveTextContent('ada@example.com');
      expect(disableTotp).not.toHaveBeenCalled();

      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(disableTotp).not.toHaveBeenCalled();

      route({
        'GET /api/connect/user/mfa-status': () => json(DISABLED),
        [`GET /api/connect/user/${USER.id}`]: () =>
          json({ ...USER, mfaSetup: false, mfaConfirm: false, userMfaStatus: 'DISABLED' }),
      });
      fireEvent.click(screen.getByRole('button', { name: 'Disable' }));
      fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Disable MFA' }));
      expect(await screen.findByText('MFA is disabled')).toBeInTheDocument();
      expect(disableTotp).toHaveBeenCalledTimes(1);
      expect(requests('GET /api/connect/user/mfa-status')).toHaveLength(2);
      await waitFor(() =>
        expect(queryClient.getQueryData<TUser>(currentUserQuery(USER.id).queryKey)?.mfaConfirm).toBe(false),
      );
      expect(await screen.findByRole('link', { name: 'Set up' })).toHaveAttribute('href', '/mfa-setup');
    });
  });

  it('saves the promotional email preference', async () => {
    route({ 'PUT /api/connect/user/settings': (body) => json({ ...USER, ...(body as object) }) });
    renderPage();
    const toggle = screen.getByRole('switch', { name: 'Email me product news and offers' });
    expect(toggle).not.toBeChecked();
    fireEvent.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(requests('PUT /api/connect/user/settings')).toEqual([{ promotionalEmails: true }]);
  });

  describe('support enquiries', () => {
    function sendEnquiry() {
      fireEvent.click(screen.getByRole('button', { name: 'Contact support' }));
      const dialog = screen.getByRole('dialog', { name: 'Contact support' });
      expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Ada Lovelace');
      expect(within(dialog).getByRole('textbox', { name: 'Email' })).toHaveValue('ada@example.com');
      fireEvent.change(within(dialog).getByRole('textbox', { name: 'Subject' }), {
        target: { value: 'Lost client secret' },
      });
      fireEvent.change(within(dialog).getByRole('textbox', { name: 'How can we help?' }), {
        target: { value: 'I need a new one.' },
      });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Send enquiry' }));
      return dialog;
    }

    it('shows exactly the spec’s message when sending fails', async () => {
      route({ 'POST /api/connect/contact-us-form': () => json({ status: 500, title: 'Internal Server Error' }, 500) });
      renderPage();
      const dialog = sendEnquiry();
      expect(await within(dialog).findByText('Something went wrong, please close and try again.')).toBeInTheDocument();
    });

    it('sends the enquiry and shows the reference and the answer time', async () => {
      route({
        'POST /api/connect/contact-us-form': () =>
          json({ reference: 'ENQ-1A2B3C4D', receivedAt: '2026-11-22T10:00:00.000Z' }),
      });
      renderPage();
      const dialog = sendEnquiry();
      expect(await within(dialog).findByText(/Your reference is ENQ-1A2B3C4D/)).toBeInTheDocument();
      expect(within(dialog).getByText('We will answer within 24 working hours.')).toBeInTheDocument();
      expect(requests('POST /api/connect/contact-us-form')).toEqual([
        {
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          company: 'Analytical Engines Ltd',
          subject: 'Lost client secret',
          description: 'I need a new one.',
        },
      ]);
    });

    it('checks the form before sending', async () => {
      renderPage();
      fireEvent.click(screen.getByRole('button', { name: 'Contact support' }));
      const dialog = screen.getByRole('dialog', { name: 'Contact support' });
      fireEvent.change(within(dialog).getByRole('textbox', { name: 'Email' }), { target: { value: 'not-an-email' } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Send enquiry' }));
      expect(await within(dialog).findByText('Please enter a valid email address.')).toBeInTheDocument();
      expect(within(dialog).getAllByText('This field is required.')).toHaveLength(2);
      expect(requests('POST /api/connect/contact-us-form')).toHaveLength(0);
    });
  });
});
