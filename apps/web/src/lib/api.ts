import { createApiClient } from './api-client.ts';
import { currentAccessToken, signOutEverywhere } from './auth.ts';

let onSessionLost: () => void = () => window.location.assign('/login');
let isEndingSession = false;
let onStaffMfaRequired: () => void = () => window.location.assign('/mfa-setup');

/** The router registers how to reach /login without reloading the page. */
export function setSessionLostHandler(handler: () => void): void {
  onSessionLost = handler;
}

/** The router registers how to reach the MFA set-up without reloading the page (issue 32 §1). */
export function setStaffMfaRequiredHandler(handler: () => void): void {
  onStaffMfaRequired = handler;
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
  onStaffMfaRequired: () => onStaffMfaRequired(),
});
