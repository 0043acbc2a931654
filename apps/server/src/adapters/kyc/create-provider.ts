import type { Config } from '../../config.ts';
import { OnfidoKycProvider } from './onfido.ts';
import type { KycProvider } from './port.ts';
import { SandboxKycProvider } from './sandbox.ts';

/** Onfido when `ONFIDO_API_TOKEN` is set; otherwise the embedded sandbox (labelled in the UI). */
export function createKycProvider(config: Pick<Config, 'kyc' | 'publicUrl'>): KycProvider {
  const onfido = config.kyc.onfido;
  if (!onfido) return new SandboxKycProvider(config.kyc.sandboxDelayMs);
  return new OnfidoKycProvider({
    apiToken: onfido.apiToken,
    region: onfido.region,
    webhookToken: onfido.webhookToken,
    baseUrl: onfido.apiUrl,
    referrer: `${config.publicUrl}/*`,
  });
}
