/**
 * The connect service's public face: what other services may use. Another service imports from
 * here, never from the service's other files (ARCHITECTURE.md, "Services talk through public faces").
 */
export { isIdentityVerified, requireVerifiedIdentity } from './kyc-guard.ts';
export { createPlanNotices, subscribeNotifications } from './notification-subscribers.ts';
