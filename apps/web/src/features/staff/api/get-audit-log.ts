import { ZAuditLogResponse, type TAuditAction, type TAuditLogResponse } from '@connect/shared';
import type { StaffListWireQuery } from '../../../components/staff-list/use-staff-list-state.ts';
import { useStaffListQuery } from '../../../components/staff-list/use-staff-list-query.ts';
import { api } from '../../../lib/api.ts';

/** Every audit-log query starts with this key: a staff action refreshes the log. */
export const auditLogKey = ['connect', 'management', 'audit-log'] as const;

/** The audit log's filters (ZAuditLogQuery): part of the actor's email, the action, the record. */
export type AuditLogFilters = { actor?: string; action?: TAuditAction; recordType?: string; recordId?: string };

export type AuditLogQuery = Omit<StaffListWireQuery, 'searchTerm'> & AuditLogFilters & { cursor?: string };

/** GET /management/audit-log: one page of entries, newest first unless sorted otherwise. */
export function getAuditLog(query: AuditLogQuery, signal?: AbortSignal): Promise<TAuditLogResponse> {
  return api.connect.get('/management/audit-log', {
    query,
    schema: ZAuditLogResponse,
    ...(signal ? { signal } : {}),
  });
}

export function useAuditLog(query: Omit<AuditLogQuery, 'cursor'>) {
  return useStaffListQuery({
    queryKey: [...auditLogKey, 'list', query],
    fetchPage: (cursor, signal) => getAuditLog({ ...query, ...(cursor ? { cursor } : {}) }, signal),
  });
}
