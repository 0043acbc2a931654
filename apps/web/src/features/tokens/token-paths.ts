import type { TToken } from '@connect/shared';
import { paths } from '../../config/paths.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';

/** The token area's links, with the product slug of the runtime configuration. */
export const tokenPaths = {
  tokenFlow: () => paths.tokenFlow(runtimeConfig().productSlug),
  payments: () => paths.tokenPayments(runtimeConfig().productSlug),
  sustainability: () => paths.tokenSustainability(runtimeConfig().productSlug),
  create: () => paths.createSmartContract(runtimeConfig().productSlug),
  kyc: () => paths.flowsKyc(runtimeConfig().productSlug),
  configureNetworks: () => `${paths.myNetworks}?configureNetworks=true`,
  support: () => paths.supportHelp,
};

/**
 * Coin details of a token: `/{product}-flows/token-flow/{type}/{tierCode}?id={token id}` — the
 * type is the token type (qrc20, qrc721) and the tier code the tier (base, flex, vari), as the
 * route names them; a type and tier do not identify one token, so its id rides in the query
 * (docs/decisions/tokens-and-chains.md "Token screens and wallet").
 */
export function coinDetailsHref(token: Pick<TToken, 'id' | 'tokenType' | 'tierType'>): string {
  const path = paths.coinDetails(runtimeConfig().productSlug, token.tokenType.toLowerCase(), token.tierType);
  return `${path}?id=${encodeURIComponent(token.id)}`;
}
