import { sql } from 'drizzle-orm';
import type { Database } from '@connect/db';

export type BetaParticipantRecord = {
  accountId: string;
  organisationName: string | null;
  optedIn: boolean;
  invited: boolean;
  optedInAt: Date | null;
  /** The email of the user who opted the account in; null when only invited, or that user is gone. */
  optedInBy: string | null;
};

/**
 * A read model (README.md): who takes part in a beta feature (issue 35 §1, the staff console's
 * Beta management) — the accounts that opted in or were invited (beta_optins, beta_invitations:
 * entitlements), with the organisation's name (accounts: connect) and who opted in (users:
 * connect). Latest first: the opt-in's time, else the invitation's.
 */
export class BetaParticipantsReadModel {
  constructor(private readonly db: Database) {}

  /** Every participant of the feature, or only the given account (none when it takes no part). */
  async participants(betaFeatureId: string, accountId?: string): Promise<BetaParticipantRecord[]> {
    const result = (await this.db.execute(sql`
      select a.id as "accountId", a.organisation_name as "organisationName",
        o.account_id is not null as "optedIn", i.account_id is not null as "invited",
        o.created_at as "optedInAt", u.email as "optedInBy"
      from (select * from beta_optins where beta_feature_id = ${betaFeatureId}) o
      full join (select * from beta_invitations where beta_feature_id = ${betaFeatureId}) i on i.account_id = o.account_id
      join accounts a on a.id = coalesce(o.account_id, i.account_id)
      left join users u on u.id = o.opted_in_by
      ${accountId ? sql`where a.id = ${accountId}` : sql``}
      order by coalesce(o.created_at, i.created_at) desc, a.id`)) as unknown as { rows: BetaParticipantRecord[] };
    return result.rows.map((row) => ({
      ...row,
      optedInAt: row.optedInAt === null ? null : new Date(row.optedInAt),
    }));
  }
}
