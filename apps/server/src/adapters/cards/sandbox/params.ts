import { invalidRequest, parameterMissing } from './errors.ts';
import type { FormReader } from './form.ts';
import type { ConfirmInput } from './intents.ts';
import type { PaymentMethods } from './objects.ts';

/* Reading the parameters of the sandbox's Stripe API calls that several calls share. */

export function enumOf<T extends string>(
  form: FormReader | undefined,
  key: string,
  values: readonly T[],
): T | undefined {
  const value = form?.string(key);
  if (value === undefined || (values as readonly string[]).includes(value)) return value as T | undefined;
  throw invalidRequest(`Invalid ${key}: must be one of ${values.join(', ')}`, {
    code: 'parameter_invalid_string',
    param: key,
  });
}

/**
 * Refuses a parameter the call does not take, as Stripe refuses one it does not know — here also
 * those Stripe knows but the sandbox does not implement, so nothing sent is silently ignored.
 */
export function refuseUnknown(form: FormReader, known: readonly string[]): void {
  const unknown = form.keys().find((key) => !known.includes(key));
  if (unknown) {
    throw invalidRequest(
      `Received unknown parameter: ${unknown}. The card sandbox takes only these here: ${known.join(', ')}.`,
      { code: 'parameter_unknown', param: unknown },
    );
  }
}

function offSessionOf(form: FormReader): boolean | undefined {
  const value = form.string('off_session');
  if (value === undefined) return undefined;
  if (value === 'false') return false;
  if (['true', 'one_off', 'recurring'].includes(value)) return true;
  throw invalidRequest(`Invalid off_session: ${value}`, { code: 'parameter_invalid_boolean', param: 'off_session' });
}

/** `payment_method`, or a card in `payment_method_data[card]`, with `return_url` and `off_session`. */
export function confirmInputOf(form: FormReader): ConfirmInput {
  const input: ConfirmInput = {
    paymentMethod: form.string('payment_method'),
    returnUrl: form.string('return_url'),
    offSession: offSessionOf(form),
  };
  const data = form.object('payment_method_data');
  if (data) {
    if ((data.string('type') ?? 'card') !== 'card') {
      throw invalidRequest('The card sandbox takes cards only.', {
        code: 'payment_method_unsupported_type',
        param: 'payment_method_data[type]',
      });
    }
    const card = data.object('card');
    if (!card) throw parameterMissing('payment_method_data[card]');
    input.card = {
      number: card.requiredString('number'),
      expMonth: card.requiredInteger('exp_month'),
      expYear: card.requiredInteger('exp_year'),
      cvc: card.string('cvc'),
    };
  }
  return input;
}

/**
 * Which payment methods the intent takes: `allowed_payment_method_types` (the pinned API
 * version's list; cards only here) and `automatic_payment_methods`. Given neither, Stripe takes
 * the Dashboard's methods, redirects allowed.
 */
export function paymentMethodsOf(form: FormReader): PaymentMethods {
  const allowed = form.list('allowed_payment_method_types') ?? null;
  if (allowed?.some((type) => type !== 'card')) {
    throw invalidRequest('The card sandbox takes cards only.', {
      code: 'payment_method_unsupported_type',
      param: 'allowed_payment_method_types',
    });
  }
  const automatic = form.object('automatic_payment_methods');
  const enabled = automatic?.boolean('enabled') ?? !allowed;
  return {
    allowed,
    automatic: enabled
      ? {
          enabled: true,
          allow_redirects: enumOf(automatic, 'allow_redirects', ['always', 'never'] as const) ?? 'always',
        }
      : null,
  };
}
