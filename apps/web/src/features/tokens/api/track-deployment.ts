import { ZTokenResult, type TToken, type TTrackDeploymentRequest } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** PUT /token/deploy/track: the wallet sent the deployment; the platform follows the transaction. */
export async function trackDeployment(request: TTrackDeploymentRequest): Promise<TToken> {
  return (await api.tokenise.put('/token/deploy/track', request, { schema: ZTokenResult })).token;
}
