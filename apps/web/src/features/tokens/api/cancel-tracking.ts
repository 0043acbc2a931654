import type { TCancelTrackingRequest } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/**
 * PUT /token/deploy/track/cancel: the wallet did not send the deployment (the user cancelled or
 * denied it, or there is no wallet). The platform deletes the unsent token and resets the
 * deploying state (spec §4), so nothing is charged.
 */
export async function cancelTracking(request: TCancelTrackingRequest): Promise<void> {
  await api.tokenise.put('/token/deploy/track/cancel', request);
}
