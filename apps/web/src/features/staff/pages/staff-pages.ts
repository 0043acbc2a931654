/*
 * The staff console's pages (users, accounts, network reviews, the audit log, campaigns and
 * claims), loaded as one chunk (app/router.tsx): they share the DataGrid, and two lazy routes sharing it would move the MUI parts it uses into
 * the chunk every signed-in page loads (vite.config.ts, the `mui` group takes modules two lazy
 * parts share). Customers never download it.
 */
export { AccountManagementPage } from './account-management.tsx';
export { ApplicationManagementPage } from './application-management.tsx';
export { AuditLogPage } from './audit-log.tsx';
export { BetaManagementPage } from './beta-management.tsx';
export { CampaignManagementPage } from './campaign-management.tsx';
export { ClaimManagementPage } from './claim-management.tsx';
export { NetworkReviewPage } from './network-review.tsx';
export { OrderManagementPage } from './order-management.tsx';
export { SubscriptionTiersPage } from './subscription-tiers.tsx';
export { TaskManagementPage } from './task-management.tsx';
export { UserManagementPage } from './user-management.tsx';
