import { useEffect, useSyncExternalStore } from 'react';

/*
 * What a page calls its own crumb when its path says less than its content: an invoice's page is
 * `/invoices/my-invoices/<uuid>`, its crumb the invoice's number. One label per path, set by the
 * page while it shows and taken back when it leaves; the breadcrumbs read it (AppBreadcrumbs).
 */

const labels = new Map<string, string>();
const listeners = new Set<() => void>();
let version = 0;

function changed() {
  version++;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The label a page gave its path's crumb, else undefined (the segment's words, spec §2.2). */
export function useCrumbLabels(): (path: string) => string | undefined {
  useSyncExternalStore(
    subscribe,
    () => version,
    () => version,
  );
  return (path) => labels.get(path);
}

/** The page at `path` names its crumb `label` while it is shown (nothing while `label` is undefined). */
export function useCrumbLabel(path: string, label: string | undefined): void {
  useEffect(() => {
    if (!label) return;
    labels.set(path, label);
    changed();
    return () => {
      if (labels.get(path) === label) {
        labels.delete(path);
        changed();
      }
    };
  }, [path, label]);
}
