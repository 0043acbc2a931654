import type { VatCheckResult, VatRegister } from './port.ts';

/** VIES answers in a second or two; a register that takes longer counts as unreachable (the number is kept UNCHECKED). */
const TIMEOUT_MS = 8_000;

/** The part of VIES's check-vat-number answer read here. */
type ViesAnswer = { valid?: unknown; userError?: unknown };

/**
 * The EU's VIES register through its REST API: `POST {VAT_CHECK_URL}/check-vat-number` with
 * `{ countryCode, vatNumber }` (the number without its prefix) answers `{ valid, userError, … }`.
 * `valid: true` → VALID; `valid: false` with userError VALID/INVALID (or none) → INVALID; any other
 * userError (MS_UNAVAILABLE, TIMEOUT, SERVICE_UNAVAILABLE, MS_MAX_CONCURRENT_REQ, …), an HTTP
 * error, a timeout or a network failure → UNREACHABLE: the register could not say, so the number
 * is not refused. VIES does not hold United Kingdom (GB) numbers since 2021: those are UNREACHABLE too.
 */
export class ViesVatRegister implements VatRegister {
  readonly name = 'vies';
  private readonly endpoint: string;

  constructor(
    baseUrl: string,
    private readonly timeoutMs = TIMEOUT_MS,
  ) {
    this.endpoint = `${baseUrl.replace(/\/+$/, '')}/check-vat-number`;
  }

  async check(vatNumber: string): Promise<VatCheckResult> {
    const countryCode = vatNumber.slice(0, 2).toUpperCase();
    if (countryCode === 'GB') return 'UNREACHABLE';
    try {
      const res = await fetch(this.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ countryCode, vatNumber: vatNumber.slice(2) }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!res.ok) return 'UNREACHABLE';
      const answer = (await res.json()) as ViesAnswer;
      if (answer.valid === true) return 'VALID';
      const error = typeof answer.userError === 'string' ? answer.userError : null;
      if (answer.valid === false && (error === null || error === 'VALID' || error === 'INVALID')) return 'INVALID';
      return 'UNREACHABLE';
    } catch {
      return 'UNREACHABLE';
    }
  }
}
