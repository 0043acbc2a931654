import { sql } from 'drizzle-orm';
import type { Database } from '@connect/db';
import type { KycStatus, TTokenStatus } from '@connect/shared';

export type GettingStartedFacts = {
  kycStatus: KycStatus;
  hasNetworks: boolean;
  hasApplications: boolean;
  hasGatewayCalls: boolean;
  hasDeployedTokens: boolean;
};

/**
 * Token statuses a deployment reaches only once it is on the chain (PENDING has not got there
 * yet, FAILED never did): ACTIVE, UNPAID (deployed, not paid), and what staff or the owner turn
 * an active token into.
 */
const DEPLOYED_STATUSES: readonly TTokenStatus[] = ['ACTIVE', 'UNPAID', 'NOT_ACTIVE', 'DEPRECATED'];

/**
 * A read model (README.md): what the getting-started checklist (connect's screen) ticks from,
 * across the tables of the services that own them (users: connect; account_networks: integrate;
 * applications: application-manager; gateway_usage_hourly: gateway; tokens: tokenise). Read
 * only, in one statement of existence checks, each answered from an index on the account.
 */
export class GettingStartedReadModel {
  constructor(private readonly db: Database) {}

  async facts(userId: string, accountId: string): Promise<GettingStartedFacts | null> {
    const deployed = sql.join(
      DEPLOYED_STATUSES.map((status) => sql`${status}`),
      sql`, `,
    );
    const result = (await this.db.execute(sql`
      select u.kyc_status as "kycStatus",
        exists (select 1 from account_networks an where an.account_id = ${accountId}) as "hasNetworks",
        exists (select 1 from applications a where a.account_id = ${accountId}) as "hasApplications",
        exists (
          select 1 from gateway_usage_hourly g where g.account_id = ${accountId} and g.calls > 0
        ) as "hasGatewayCalls",
        exists (
          select 1 from tokens t where t.account_id = ${accountId} and t.status in (${deployed})
        ) as "hasDeployedTokens"
      from users u where u.id = ${userId} and u.account_id = ${accountId}`)) as unknown as {
      rows: GettingStartedFacts[];
    };
    return result.rows[0] ?? null;
  }
}
