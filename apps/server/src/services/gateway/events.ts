import type { Deps } from '../../types.ts';

type Listener = (applicationId: string) => void;

/**
 * Changes the platform API's caches must hear about at once on this node (an application's
 * secrets rotated or revoked, its networks edited, the application deleted). Other nodes catch
 * up when their short cache entries expire (see gateway/state.ts).
 */
export class ApplicationEvents {
  private readonly listeners = new Set<Listener>();

  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(applicationId: string): void {
    for (const listener of this.listeners) listener(applicationId);
  }
}

// One channel per built app: tests build many apps in one process.
const channels = new WeakMap<Deps, ApplicationEvents>();

export function applicationEvents(deps: Deps): ApplicationEvents {
  let channel = channels.get(deps);
  if (!channel) {
    channel = new ApplicationEvents();
    channels.set(deps, channel);
  }
  return channel;
}
