import { sql, type SQL } from 'drizzle-orm';
import { auditLog, type Database } from '@connect/db';
import type { TAuditAction, TAuditEntry, TAuditOutcome } from '@connect/shared';
import { likeEscaped, queryStaffList, type StaffListDescriptor, type StaffListRequest } from '../lib/staff-list.ts';

/** Who acted and in which request: every entry names them (issue 32 §1). */
export type AuditActor = { id: string | null; email: string; requestId?: string | undefined };
/** The 'system' actor: a job (the 90-day purge). */
export const SYSTEM_ACTOR: AuditActor = { id: null, email: 'system' };

export type AuditRecord = {
  action: TAuditAction;
  recordType: string;
  recordId: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
};

export type AuditFilters = {
  actor?: string | undefined;
  action?: TAuditAction | undefined;
  recordType?: string | undefined;
  recordId?: string | undefined;
};

type AuditRow = typeof auditLog.$inferSelect;

/** `before`/`after` hold what an action changed; Dates become their ISO text. */
function values(value: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  return value ? (JSON.parse(JSON.stringify(value)) as Record<string, unknown>) : null;
}

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

export function presentAuditEntry(row: AuditRow): TAuditEntry {
  return {
    id: String(row.id),
    occurredAt: iso(row.occurredAt),
    actorId: row.actorId,
    actorEmail: row.actorEmail,
    action: row.action as TAuditAction,
    outcome: row.outcome as TAuditOutcome,
    recordType: row.recordType,
    recordId: row.recordId,
    before: (row.before as Record<string, unknown> | null) ?? null,
    after: (row.after as Record<string, unknown> | null) ?? null,
    intentId: row.intentId === null ? null : String(row.intentId),
    detail: row.detail,
    requestId: row.requestId,
  };
}

/**
 * The audit log (issue 32 §1; schema/staff-console.ts): append-only, in this database. A change
 * made here is one `record` in the change's own transaction (pass the transaction as `db`); a
 * change made in the identity pool is an `intent` committed before the call and an `outcome`
 * after it, so a crash between the two leaves an intent without an outcome — visible in the log.
 */
export class AuditLogRepository {
  constructor(private readonly db: Database) {}

  private async insert(
    actor: AuditActor,
    entry: AuditRecord,
    outcome: TAuditOutcome,
    extra: { intentId?: bigint; detail?: string } = {},
  ): Promise<AuditRow> {
    const [row] = await this.db
      .insert(auditLog)
      .values({
        actorId: actor.id,
        actorEmail: actor.email,
        action: entry.action,
        outcome,
        recordType: entry.recordType,
        recordId: entry.recordId,
        before: values(entry.before),
        after: values(entry.after),
        intentId: extra.intentId ?? null,
        detail: extra.detail ?? null,
        requestId: actor.requestId ?? null,
      })
      .returning();
    return row!;
  }

  /** A change made in this database: call it inside the change's transaction. */
  record(actor: AuditActor, entry: AuditRecord): Promise<AuditRow> {
    return this.insert(actor, entry, 'DONE');
  }

  /** Before an identity-pool call: commit this first. */
  intent(actor: AuditActor, entry: AuditRecord): Promise<AuditRow> {
    return this.insert(actor, entry, 'INTENT');
  }

  /** After the identity-pool call: names its intent. */
  outcome(
    actor: AuditActor,
    intent: AuditRow,
    result: { ok: true; after?: Record<string, unknown> | null } | { ok: false; detail: string },
  ): Promise<AuditRow> {
    const entry: AuditRecord = {
      action: intent.action as TAuditAction,
      recordType: intent.recordType,
      recordId: intent.recordId,
      before: intent.before as Record<string, unknown> | null,
      after: result.ok ? (result.after ?? (intent.after as Record<string, unknown> | null)) : null,
    };
    return result.ok
      ? this.insert(actor, entry, 'SUCCEEDED', { intentId: intent.id })
      : this.insert(actor, entry, 'FAILED', { intentId: intent.id, detail: result.detail });
  }

  private where(filters: AuditFilters): SQL[] {
    const where: SQL[] = [];
    if (filters.actor) where.push(sql`lower(a.actor_email) collate "C" like ${`${likeEscaped(filters.actor)}%`}`);
    if (filters.action) where.push(sql`a.action = ${filters.action}`);
    if (filters.recordType) where.push(sql`a.record_type = ${filters.recordType}`);
    if (filters.recordId) where.push(sql`a.record_id = ${filters.recordId}`);
    return where;
  }

  private descriptor(filters: AuditFilters): StaffListDescriptor<'occurredAt'> {
    return {
      from: sql`audit_log a`,
      id: sql`a.id`,
      idCast: 'bigint',
      columns: sql`a.*`,
      sorts: { occurredAt: { key: sql`a.occurred_at`, cast: 'timestamptz' } },
      defaultSort: { field: 'occurredAt', direction: 'desc' },
      where: this.where(filters),
    };
  }

  async list(filters: AuditFilters, request: Omit<StaffListRequest<'occurredAt'>, 'total'>) {
    const { rows, paging } = await queryStaffList<'occurredAt', Record<string, unknown>>(
      (query) => this.rows(query),
      this.descriptor(filters),
      request,
    );
    return { ...paging, entries: rows.map(presentRawAuditRow) };
  }

  /** Newest first, at most `limit` rows, for the CSV export. */
  async exportRows(filters: AuditFilters, limit: number): Promise<TAuditEntry[]> {
    const where = this.where(filters);
    const rows = await this.rows<Record<string, unknown>>(
      sql`select a.* from audit_log a ${where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``}
        order by a.occurred_at desc, a.id desc limit ${limit}`,
    );
    return rows.map(presentRawAuditRow);
  }

  private async rows<R>(query: SQL): Promise<R[]> {
    // Both drivers (node-postgres and PGlite) answer execute() with an object carrying `rows`.
    return ((await this.db.execute(query)) as unknown as { rows: R[] }).rows;
  }
}

/** An entry from a raw `select a.*` row of audit_log (the list, the export, read models). */
export function presentRawAuditRow(row: Record<string, unknown>): TAuditEntry {
  return presentAuditEntry(fromSnake(row));
}

/** A raw `select a.*` row in the schema's field names. */
function fromSnake(row: Record<string, unknown>): AuditRow {
  return {
    id: BigInt(row.id as string | number | bigint),
    occurredAt: new Date(row.occurred_at as string | Date),
    actorId: (row.actor_id as string | null) ?? null,
    actorEmail: row.actor_email as string,
    action: row.action as string,
    outcome: row.outcome as string,
    recordType: row.record_type as string,
    recordId: row.record_id as string,
    before: typeof row.before === 'string' ? JSON.parse(row.before) : (row.before ?? null),
    after: typeof row.after === 'string' ? JSON.parse(row.after) : (row.after ?? null),
    intentId: row.intent_id === null || row.intent_id === undefined ? null : BigInt(row.intent_id as string),
    detail: (row.detail as string | null) ?? null,
    requestId: (row.request_id as string | null) ?? null,
  };
}
