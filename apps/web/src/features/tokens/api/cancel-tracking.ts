import { ZTokenResult, type TCancelTrackingRequest, type TToken } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/**
 * PUT /token/deploy/track/cancel: the wallet did not send the deployment (the user cancelled or
 * denied it). The platform marks the unsent token failed with the reason, gives its tokens:create
 * unit back and charges nothing.
 */
export async function cancelTracking(request: TCancelTrackingRequest): Promise<TToken> {
  return (await api.tokenise.put('/token/deploy/track/cancel', request, { schema: ZTokenResult })).token;
}
