import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TCaptchaChallenge, TCaptchaSolution } from '@connect/shared';
import { paths } from '../../../config/paths.ts';
import { register } from '../../../lib/auth.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { getCaptchaChallenge } from '../api/get-captcha-challenge.ts';
import { SLOW_RENDER_MS, cognitoError, destinations, fillIn, press } from '../test/utils.tsx';
import { RegisterPage } from './register.tsx';

vi.mock('../../../lib/auth.ts');
vi.mock('../api/get-captcha-challenge.ts');

const PASSWORD = 'Correct-horse-1';

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A real (small) challenge, solved by the page with the shared solver. */
async function challengeFor(number: number, expiresInSeconds = 600): Promise<TCaptchaChallenge> {
  const salt = `0a1b2c?expires=${Math.floor(Date.now() / 1000) + expiresInSeconds}`;
  return {
    algorithm: 'SHA-256',
    challenge: await sha256Hex(`${salt}${number}`),
    maxnumber: 50,
    salt,
    signature: 'sig',
  };
}

function renderRegister() {
  return renderWithProviders(<RegisterPage />, {
    route: paths.register,
    routes: destinations(paths.registerConfirmation, paths.login),
  });
}

const captchaBox = () => screen.getByRole('checkbox', { name: "I'm not a robot" });
const termsBox = () => screen.getByRole('checkbox', { name: /I accept the terms of use/ });

async function verifyCaptcha() {
  fireEvent.click(captchaBox());
  await waitFor(() => expect(captchaBox()).toBeChecked());
}

async function fillValidForm(email = 'New.User@Example.com') {
  fillIn('Email address', email);
  fillIn('Password', PASSWORD);
  fillIn('Confirm password', PASSWORD);
  fireEvent.click(termsBox());
  await verifyCaptcha();
}

describe('RegisterPage', { timeout: SLOW_RENDER_MS }, () => {
  beforeEach(async () => {
    vi.resetAllMocks();
    vi.mocked(getCaptchaChallenge).mockResolvedValue(await challengeFor(37));
  });

  it('has one h1, new-password autocomplete on both password fields and a link to the terms', () => {
    renderRegister();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByLabelText('Password', { selector: 'input' })).toHaveAttribute('autocomplete', 'new-password');
    expect(screen.getByLabelText('Confirm password', { selector: 'input' })).toHaveAttribute(
      'autocomplete',
      'new-password',
    );
    expect(screen.getByRole('link', { name: 'terms of use' })).toHaveAttribute('target', '_blank');
  });

  it('ticks each password rule as it is met', () => {
    renderRegister();
    const rule = (label: string) => screen.getByText(label).closest('li')!;
    fillIn('Password', 'abc');
    expect(rule('A lowercase letter')).toHaveAttribute('data-met', 'true');
    expect(rule('A lowercase letter')).toHaveTextContent('(done)');
    expect(rule('At least 8 characters')).toHaveAttribute('data-met', 'false');
    expect(rule('At least 8 characters')).toHaveTextContent('(not yet)');
    expect(rule('An uppercase letter')).toHaveAttribute('data-met', 'false');
    fillIn('Password', 'Abcdefg1!');
    for (const label of ['At least 8 characters', 'A lowercase letter', 'An uppercase letter', 'A number']) {
      expect(rule(label)).toHaveAttribute('data-met', 'true');
    }
    expect(rule('A symbol, such as ! ? # or @')).toHaveAttribute('data-met', 'true');
  });

  it('says what is wrong with each field when it is left, in the shared wording', async () => {
    renderRegister();
    fillIn('Email address', 'nope');
    fillIn('Password', 'weakpass');
    fillIn('Confirm password', 'different');
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Password must be at least 8 characters and contain a lowercase letter, an uppercase letter, a number and a symbol.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match.')).toBeInTheDocument();
  });

  it('re-checks the confirmation when the password changes afterwards', async () => {
    renderRegister();
    fillIn('Password', PASSWORD);
    fillIn('Confirm password', PASSWORD);
    await waitFor(() => expect(screen.queryByText('Passwords do not match.')).not.toBeInTheDocument());
    fillIn('Password', `${PASSWORD}x`);
    expect(await screen.findByText('Passwords do not match.')).toBeInTheDocument();
  });

  it('requires the terms and the captcha before anything is sent', async () => {
    renderRegister();
    fillIn('Email address', 'new@example.com');
    fillIn('Password', PASSWORD);
    fillIn('Confirm password', PASSWORD);
    press('Create account');
    expect(await screen.findByText('Please accept the terms of use to continue.')).toBeInTheDocument();
    expect(screen.getByText('Please confirm that you are not a robot.')).toBeInTheDocument();
    expect(register).not.toHaveBeenCalled();
  });

  it('solves the captcha in the browser, showing its progress, and signs up with the solution', async () => {
    vi.mocked(register).mockResolvedValue(undefined);
    const { router } = renderRegister();
    fillIn('Email address', 'New.User@Example.com');
    fillIn('Password', PASSWORD);
    fillIn('Confirm password', PASSWORD);
    fireEvent.click(termsBox());
    fireEvent.click(captchaBox());
    expect(await screen.findByText('Verifying…')).toBeInTheDocument();
    await waitFor(() => expect(captchaBox()).toBeChecked());
    expect(screen.getByRole('status')).toHaveTextContent('Verified');

    press('Create account');
    expect(await screen.findByText(`Arrived at ${paths.registerConfirmation}`)).toBeInTheDocument();
    expect(router.state.location.search).toBe('?email=new.user%40example.com');
    const [email, password, captcha] = vi.mocked(register).mock.calls[0]!;
    expect([email, password]).toEqual(['new.user@example.com', PASSWORD]);
    const solution = JSON.parse(atob(captcha!)) as TCaptchaSolution;
    expect(solution).toMatchObject({ algorithm: 'SHA-256', number: 37, signature: 'sig' });
  });

  it('says when the captcha could not be verified, and lets the user try again', async () => {
    vi.mocked(getCaptchaChallenge).mockRejectedValueOnce(new Error('offline'));
    renderRegister();
    fireEvent.click(captchaBox());
    expect(await screen.findByText('Verification failed. Please try again.')).toBeInTheDocument();
    expect(captchaBox()).not.toBeChecked();
    await verifyCaptcha();
  });

  it('unticks the captcha shortly before its challenge expires, so the next submit gets a fresh one', async () => {
    // Unticked 15 s before expiry: here, one to two seconds after it was verified.
    vi.mocked(getCaptchaChallenge).mockResolvedValue(await challengeFor(3, 17));
    renderRegister();
    await verifyCaptcha();
    await waitFor(() => expect(captchaBox()).not.toBeChecked(), { timeout: 4_000 });
  });

  it('says the user already exists, offers to log in, and asks for a new captcha', async () => {
    vi.mocked(register).mockRejectedValue(
      cognitoError('UsernameExistsException', 'An account with the given email already exists.'),
    );
    renderRegister();
    await fillValidForm();
    press('Create account');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('User already exists.');
    expect(within(alert).getByRole('link', { name: 'Log in' })).toHaveAttribute(
      'href',
      `${paths.login}?email=new.user%40example.com`,
    );
    // A solution is accepted once: the box unticks so the next attempt gets a fresh one.
    expect(captchaBox()).not.toBeChecked();
  });

  it('shows the generic message when the pool refuses for another reason', async () => {
    vi.mocked(register).mockRejectedValue(cognitoError('InvalidParameterException', 'Captcha verification failed.'));
    renderRegister();
    await fillValidForm();
    press('Create account');
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong! please try again.');
  });
});
