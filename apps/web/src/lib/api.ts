import { createApiClient } from './api-client.ts';
import { currentAccessToken, signOutEverywhere } from './auth.ts';

let onSessionLost: () => void = () => window.location.assign('/login');
let isEndingSession = false;

/** The router registers how to reach /login without reloading the page. */
export function setSessionLostHandler(handler: () => void): void {
  onSessionLost = handler;
}

/** The app's request layer; see api-client.ts for the rules. */
export const api = createApiClient({
  getAccessToken: currentAccessToken,
  onSessionLost: () => {
    // Several requests can fail together; end the session once.
    if (isEndingSession) return;
    isEndingSession = true;
    void signOutEverywhere().finally(() => {
      isEndingSession = false;
      onSessionLost();
    });
  },
});
