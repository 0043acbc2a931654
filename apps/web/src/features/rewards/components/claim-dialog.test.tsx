import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { REWARD_MESSAGES } from '@connect/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { API, CLAIM, createFetchMock, json, problem } from '../test/fixtures.ts';
import { ClaimDialog } from './claim-dialog.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const POST_CLAIM = `POST ${API}/reward`;
// EIP-55's own examples: a correct mixed-case checksum, the same with one letter's case flipped.
const CHECKSUMMED = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BAD_CHECKSUM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD';
const LOWER = '0x52908400098527886e0f7030069857d2e4169ee7';
const mock = createFetchMock();

function renderDialog(bounds = { balance: '5.25', minClaim: '1' }) {
  const onClose = vi.fn();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  renderWithProviders(<ClaimDialog bounds={bounds} onClose={onClose} />, { queryClient });
  return { onClose, dialog: screen.getByRole('dialog', { name: 'Claim QNT' }) };
}

const address = (dialog: HTMLElement) => within(dialog).getByRole('textbox', { name: /^Ethereum address/ });
const amount = (dialog: HTMLElement) => within(dialog).getByRole('textbox', { name: /^Amount/ });
const type = (input: HTMLElement, value: string) => {
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
};
const next = (dialog: HTMLElement) => fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
/** The step shown: the stepper marks it current, and its heading names it. */
const currentStep = (dialog: HTMLElement) => {
  const marked = dialog.querySelector('[aria-current="step"] .MuiStepLabel-label')?.textContent;
  const heading = within(dialog).getByRole('heading', { level: 3 }).textContent;
  return marked === heading ? heading : `stepper ${marked}, heading ${heading}`;
};

describe('ClaimDialog', { timeout: 40_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', mock.fetchMock);
    mock.route({
      [POST_CLAIM]: (body) =>
        json({ ...CLAIM, ...(body as object), amountClaimed: (body as { qnt: string }).qnt }, 201),
    });
  });
  afterEach(() => {
    mock.fetchMock.mockClear();
    vi.unstubAllGlobals();
  });

  it('takes the steps Details, Summary, Confirmation, starting at Details', () => {
    const { dialog } = renderDialog();
    const steps = within(dialog)
      .getAllByText(/^(Details|Summary|Confirmation)$/)
      .map((label) => label.textContent);
    expect(steps).toEqual(expect.arrayContaining(['Details', 'Summary', 'Confirmation']));
    expect(currentStep(dialog)).toBe('Details');
  });

  it('asks 2 QNT by default', () => {
    const { dialog } = renderDialog({ balance: '5.25', minClaim: '1' });
    expect(amount(dialog)).toHaveValue('2');
  });

  it('defaults to the balance when it is below 2 QNT', () => {
    const { dialog } = renderDialog({ balance: '1.5', minClaim: '1' });
    expect(amount(dialog)).toHaveValue('1.5');
  });

  it('requires the address, with the contract’s words', async () => {
    const { dialog } = renderDialog();
    next(dialog);
    expect(await within(dialog).findByText(REWARD_MESSAGES.addressRequired)).toBeInTheDocument();
    expect(address(dialog)).toHaveAttribute('aria-invalid', 'true');
    expect(currentStep(dialog)).toBe('Details');
  });

  it('refuses an address that is not 0x and 42 characters', async () => {
    const { dialog } = renderDialog();
    type(address(dialog), '0x1234');
    expect(await within(dialog).findByText(REWARD_MESSAGES.addressFormat)).toBeInTheDocument();
    type(address(dialog), `${LOWER}0`);
    expect(await within(dialog).findByText(REWARD_MESSAGES.addressFormat)).toBeInTheDocument();
    type(address(dialog), LOWER.replace('0x', '1x'));
    expect(await within(dialog).findByText(REWARD_MESSAGES.addressFormat)).toBeInTheDocument();
  });

  it('refuses mixed case with a wrong checksum, and accepts it with the right one', async () => {
    const { dialog } = renderDialog();
    type(address(dialog), BAD_CHECKSUM);
    expect(await within(dialog).findByText(REWARD_MESSAGES.addressChecksum)).toBeInTheDocument();
    type(address(dialog), CHECKSUMMED);
    await waitFor(() => expect(within(dialog).queryByText(REWARD_MESSAGES.addressChecksum)).toBeNull());
    expect(address(dialog)).toHaveAttribute('aria-invalid', 'false');
  });

  it('accepts an address in lower case, whatever its checksum would be', async () => {
    const { dialog } = renderDialog();
    type(address(dialog), CHECKSUMMED.toLowerCase());
    next(dialog);
    await waitFor(() => expect(currentStep(dialog)).toBe('Summary'));
  });

  it('never claims more than the balance, less than the smallest claim, or beyond 18 decimals', async () => {
    const { dialog } = renderDialog({ balance: '5.25', minClaim: '1' });
    type(amount(dialog), '5.250000000000000001');
    expect(await within(dialog).findByText('You can claim at most your balance of 5.25 QNT.')).toBeInTheDocument();
    type(amount(dialog), '0.999999999999999999');
    expect(await within(dialog).findByText('The smallest claim is 1 QNT.')).toBeInTheDocument();
    type(amount(dialog), '1.0000000000000000001');
    expect(await within(dialog).findByText(REWARD_MESSAGES.amountFormat)).toBeInTheDocument();
    type(amount(dialog), '0');
    expect(await within(dialog).findByText(REWARD_MESSAGES.amountPositive)).toBeInTheDocument();
    type(amount(dialog), '');
    expect(await within(dialog).findByText(REWARD_MESSAGES.amountRequired)).toBeInTheDocument();
    // The bounds themselves are allowed.
    type(address(dialog), LOWER);
    type(amount(dialog), '5.25');
    next(dialog);
    await waitFor(() => expect(currentStep(dialog)).toBe('Summary'));
    expect(mock.bodies(POST_CLAIM)).toEqual([]);
  });

  it('offers the whole balance at one click', async () => {
    const { dialog } = renderDialog({ balance: '5.25', minClaim: '1' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Claim the whole balance' }));
    expect(amount(dialog)).toHaveValue('5.25');
  });

  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('summarises the claim with its warnings, then sends POST /reward {address, qnt} and shows the tracking code', async () => {
    const { dialog } = renderDialog();
    type(address(dialog), ` ${CHECKSUMMED} `);
    type(amount(dialog), '2.123456789012345678');
    next(dialog);
    await waitFor(() => expect(currentStep(dialog)).toBe('Summary'));
    expect(within(dialog).getByTestId('summary-address')).toHaveTextContent(CHECKSUMMED);
    // Exactly as it will be sent: every decimal.
    expect(within(dialog).getByTestId('summary-amount')).toHaveTextContent('2.123456789012345678 QNT');
    expect(within(dialog).getByText(REWARD_MESSAGES.cannotUndo)).toBeInTheDocument();
    expect(within(dialog).getByText(REWARD_MESSAGES.actionedWithin)).toBeInTheDocument();
    expect(mock.bodies(POST_CLAIM)).toEqual([]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm claim' }));
    expect(await within(dialog).findByTestId('tracking-code')).toHaveTextContent('RWD-7K2P9Q');
    expect(currentStep(dialog)).toBe('Confirmation');
    expect(mock.bodies(POST_CLAIM)).toEqual([
      { address: CHECKSUMMED, qnt: '2.123456789012345678', idempotencyKey: expect.stringMatching(UUID) },
    ]);
    expect(within(dialog).getByText(/within 5 working days/)).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'See your claims' })).toHaveAttribute(
      'href',
      '/rewards/history?tab=claims',
    );
  });

  it('goes back to the details from the summary with what was typed', async () => {
    const { dialog } = renderDialog();
    type(address(dialog), LOWER);
    type(amount(dialog), '3');
    next(dialog);
    await waitFor(() => expect(currentStep(dialog)).toBe('Summary'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Edit: Amount' }));
    await waitFor(() => expect(currentStep(dialog)).toBe('Details'));
    expect(address(dialog)).toHaveValue(LOWER);
    expect(amount(dialog)).toHaveValue('3');
  });

  it('says clearly why the server refused the claim, and stays on the summary', async () => {
    mock.route({
      [POST_CLAIM]: () => json(problem('CLAIM_ABOVE_BALANCE', 409, 'The claim is more than your reward balance.'), 409),
    });
    const { dialog } = renderDialog();
    type(address(dialog), LOWER);
    next(dialog);
    await waitFor(() => expect(currentStep(dialog)).toBe('Summary'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm claim' }));
    const alert = await within(dialog).findByText('The claim was not made');
    expect(alert.closest('[role="alert"]')).toHaveTextContent('The claim is more than your reward balance.');
    expect(currentStep(dialog)).toBe('Summary');

    // Confirm again is the same claim to the server (its key); a new summary is a new claim.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm claim' }));
    await waitFor(() => expect(mock.bodies(POST_CLAIM)).toHaveLength(2));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Back' }));
    next(dialog);
    await waitFor(() => expect(currentStep(dialog)).toBe('Summary'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm claim' }));
    await waitFor(() => expect(mock.bodies(POST_CLAIM)).toHaveLength(3));
    const keys = mock.bodies(POST_CLAIM).map((body) => (body as { idempotencyKey: string }).idempotencyKey);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('puts a field the server refused back under that field', async () => {
    mock.route({
      [POST_CLAIM]: () =>
        json(
          {
            ...problem('INVALID_REQUEST', 400, 'The request is invalid.'),
            invalidParams: [{ name: 'address', reason: REWARD_MESSAGES.addressChecksum }],
          },
          400,
        ),
    });
    const { dialog } = renderDialog();
    type(address(dialog), LOWER);
    next(dialog);
    await waitFor(() => expect(currentStep(dialog)).toBe('Summary'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm claim' }));
    await waitFor(() => expect(currentStep(dialog)).toBe('Details'));
    expect(within(dialog).getByText(REWARD_MESSAGES.addressChecksum)).toBeInTheDocument();
  });
});
