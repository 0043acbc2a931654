import { useSyncExternalStore } from 'react';
import { queryClient } from '../../lib/query-client.ts';
import { session } from '../../lib/storage.ts';

/**
 * The KYC state of spec §3: `displayKycMessage`. Starting a check sets it (the page then says the
 * check has started and takes about 24 hours); loading the user clears it (spec §4).
 */
let displayKycMessage = false;
const listeners = new Set<() => void>();

export function setDisplayKycMessage(value: boolean): void {
  if (displayKycMessage === value) return;
  displayKycMessage = value;
  for (const listener of listeners) listener();
}

export function getDisplayKycMessage(): boolean {
  return displayKycMessage;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useDisplayKycMessage(): boolean {
  return useSyncExternalStore(subscribe, getDisplayKycMessage);
}

// "Loading a user clears it": a fetch of the current user (not a local update after a change).
queryClient.getQueryCache().subscribe((event) => {
  if (event.type !== 'updated' || event.action.type !== 'success' || event.action.manual) return;
  const [service, kind, userUuid] = event.query.queryKey as unknown[];
  if (service === 'connect' && kind === 'user' && userUuid === session.userUuid()) setDisplayKycMessage(false);
});
