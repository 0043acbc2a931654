/**
 * The connect service's public face: what other services may use. Another service imports from
 * here, never from the service's other files (ARCHITECTURE.md, "Services talk through public faces").
 */
export { liveHubOf } from './live-hub.ts';
export { createPlanNotices } from './account-notice-subscribers.ts';
export { subscribeNotifications } from './notification-subscribers.ts';
