import { VAT_NUMBER_PATTERN } from '@connect/shared';
import { vatCountryOf, type VatCheckResult, type VatRegister } from './port.ts';

/**
 * The embedded VAT register (no VAT_CHECK_URL): a number is VALID when it has the shape of a VAT
 * number (VAT_NUMBER_PATTERN), its country prefix is in the VAT table, and it does not end in
 * "000". The last rule is documented (docs/decisions/usage-and-invoices.md, "Which VAT") so that tests and testers can make a
 * number the register refuses (`DE123456000`); the sandbox is never unreachable.
 */
export class SandboxVatRegister implements VatRegister {
  readonly name = 'sandbox';

  constructor(private readonly rates: Readonly<Record<string, number>>) {}

  check(vatNumber: string): Promise<VatCheckResult> {
    const number = vatNumber.toUpperCase();
    const isKnown = VAT_NUMBER_PATTERN.test(number) && vatCountryOf(number) in this.rates && !number.endsWith('000');
    return Promise.resolve(isKnown ? 'VALID' : 'INVALID');
  }
}
