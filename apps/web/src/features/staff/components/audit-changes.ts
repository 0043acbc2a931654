import type { TAuditEntry } from '@connect/shared';

export type AuditChange = { field: string; before: string; after: string };

function show(value: unknown): string {
  if (value === undefined || value === null || value === '') return '–';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The fields an entry changed, in the order its values name them: what each was and became. */
export function auditChanges(entry: Pick<TAuditEntry, 'before' | 'after'>): AuditChange[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => ({ field, before: show(before[field]), after: show(after[field]) }));
}

/** A compact line for the list: `role: SME → INSTITUTION; firstName: Ada → Augusta (+2)`. */
export function auditChangesSummary(entry: Pick<TAuditEntry, 'before' | 'after'>, shown = 2): string {
  const changes = auditChanges(entry);
  if (changes.length === 0) return '–';
  const line = changes
    .slice(0, shown)
    .map((change) => `${change.field}: ${change.before} → ${change.after}`)
    .join('; ');
  return changes.length > shown ? `${line} (+${changes.length - shown})` : line;
}
