import { ZToken, type TToken, type TTrackDeploymentRequest } from '@connect/shared';
import { z } from 'zod';
import { api } from '../../../lib/api.ts';

// `ZTokenResponse` of @connect/shared clashes with the OAuth token response of the same name.
const ZTokenBody = z.object({ token: ZToken });

/** PUT /token/deploy/track: the wallet sent the deployment; the platform follows the transaction. */
export async function trackDeployment(request: TTrackDeploymentRequest): Promise<TToken> {
  return (await api.tokenise.put('/token/deploy/track', request, { schema: ZTokenBody })).token;
}
