/**
 * VAT numbers (issue 18): whether a customer's VAT number is known to its country's register.
 * A valid number of another country's business makes its invoices reverse-charged, so the answer
 * is kept with the billing details (billing_details.vat_number_status).
 */

/** VALID: the register knows it. INVALID: the register says it does not exist. UNREACHABLE: the register could not be asked. */
export type VatCheckResult = 'VALID' | 'INVALID' | 'UNREACHABLE';

export interface VatRegister {
  /** 'sandbox' (the embedded format rule) or 'vies' (the EU register). */
  readonly name: string;
  /** Checks a normalised number (country prefix and letters or digits, e.g. `DE123456789`); never throws. */
  check(vatNumber: string): Promise<VatCheckResult>;
}

/** The country of a VAT number's prefix: Greece's numbers start with EL, its ISO code is GR. */
export function vatCountryOf(vatNumber: string): string {
  const prefix = vatNumber.slice(0, 2).toUpperCase();
  return prefix === 'EL' ? 'GR' : prefix;
}
