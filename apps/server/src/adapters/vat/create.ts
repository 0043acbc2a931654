import type { Config } from '../../config.ts';
import { SandboxVatRegister } from './sandbox.ts';
import { ViesVatRegister } from './vies.ts';
import type { VatRegister } from './port.ts';

export type { VatCheckResult, VatRegister } from './port.ts';

/** The configured VIES register (`VAT_CHECK_URL`), or the embedded sandbox. */
export function createVatRegister(config: Pick<Config, 'invoices'>): VatRegister {
  const { vatCheckUrl, vatRates } = config.invoices;
  return vatCheckUrl ? new ViesVatRegister(vatCheckUrl) : new SandboxVatRegister(vatRates);
}
