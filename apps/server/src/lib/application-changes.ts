import type { Deps } from '../types.ts';

type Listener = (applicationId: string) => void;

/**
 * "This application changed": its secrets rotated or revoked, its networks edited, the
 * application deleted; or every application of an account changed (its status: staff removed
 * its last user). The application manager announces it; the platform API (gateway) drops
 * what it keeps in memory about that application. It lives here, not in either service, so
 * neither imports the other.
 *
 * Synchronous and in-process on purpose, not an event on the bus: a revoked secret must stop
 * working at once — the very next request on this node is refused — which an at-least-once,
 * asynchronously delivered event cannot promise. Other nodes catch up when their short cache
 * entries expire (GATEWAY_CACHE_MS, gateway/credential-cache.ts).
 */
export class ApplicationChanges {
  private readonly listeners = new Set<Listener>();
  private readonly accountListeners = new Set<Listener>();

  /** Calls the listener on every change; answers the function that stops it. */
  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(applicationId: string): void {
    for (const listener of this.listeners) listener(applicationId);
  }

  /** Calls the listener when an account's status changes (user management closes or reopens it). */
  onAccount(listener: Listener): () => void {
    this.accountListeners.add(listener);
    return () => this.accountListeners.delete(listener);
  }

  /** Every application of the account changed: announce it after the change commits. */
  accountChanged(accountId: string): void {
    for (const listener of this.accountListeners) listener(accountId);
  }
}

// One channel per built app: tests build many apps in one process.
const channels = new WeakMap<Deps, ApplicationChanges>();

/** The app's channel of application changes. */
export function applicationChanges(deps: Deps): ApplicationChanges {
  let channel = channels.get(deps);
  if (!channel) {
    channel = new ApplicationChanges();
    channels.set(deps, channel);
  }
  return channel;
}
