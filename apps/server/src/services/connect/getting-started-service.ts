import type { GettingStartedStep, TGettingStarted } from '@connect/shared';
import { GETTING_STARTED_STEPS } from '@connect/shared';
import { notFound } from '../../lib/errors.ts';
import type { PortalUser } from '../../lib/portal-users.ts';
import type { GettingStartedFacts, GettingStartedReadModel } from '../../read-models/getting-started.ts';

/** When each step counts as done: the one place that decides it. */
const IS_DONE: Record<GettingStartedStep, (facts: GettingStartedFacts) => boolean> = {
  // Only a finished verification: PENDING can still fail.
  verifyIdentity: (facts) => facts.kycStatus === 'VERIFIED',
  selectNetworks: (facts) => facts.hasNetworks,
  registerApplication: (facts) => facts.hasApplications,
  // Counted by the gateway per application and day; deleting the application forgets its calls.
  firstGatewayCall: (facts) => facts.hasGatewayCalls,
  firstToken: (facts) => facts.hasDeployedTokens,
};

/** The dashboard's getting-started checklist, ticked from what the account has really done. */
export class GettingStartedService {
  constructor(private readonly repo: GettingStartedReadModel) {}

  /** Only the caller's own id is found, like GET /user/{id}: another id answers 404, whoever it is. */
  async checklist(caller: Pick<PortalUser, 'id' | 'accountId'>, id: string): Promise<TGettingStarted> {
    if (id.toLowerCase() !== caller.id.toLowerCase()) throw notFound('USER_NOT_FOUND');
    const facts = await this.repo.facts(caller.id, caller.accountId);
    // The user can vanish between authentication and here (an administrator removed them).
    if (!facts) throw notFound('USER_NOT_FOUND');
    return { steps: GETTING_STARTED_STEPS.map((step) => ({ step, isDone: IS_DONE[step](facts) })) };
  }
}
