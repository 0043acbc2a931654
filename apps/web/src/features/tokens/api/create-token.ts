import { ZCreateTokenResponse, type TCreateTokenRequest, type TCreateTokenResponse } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/**
 * POST /v2/token: creates the token and, for a platform deployment, starts deploying it. For a
 * wallet deployment the answer carries the exact transaction for the wallet to send. The same
 * externalId always answers the same token, so a retry never deploys twice.
 */
export function createToken(request: TCreateTokenRequest): Promise<TCreateTokenResponse> {
  return api.tokenise.post('/v2/token', request, { schema: ZCreateTokenResponse });
}
