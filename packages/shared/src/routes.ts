import { z } from 'zod';
import { type Role, type RoleGroup, roleInGroups, type ServiceName } from './constants.ts';
import { isFeatureAvailable, type TAvailableFeatures } from './content.ts';

export const ROUTE_CATEGORIES = ['Core', 'Developer Hub', 'Connect Admin'] as const;

export type RouteItem = {
  path: string;
  name: string;
  title: string;
  icon?: string;
  /** Access groups (spec §6); absent means open to every signed-in user. */
  roles?: RoleGroup[];
  category?: (typeof ROUTE_CATEGORIES)[number];
  order?: number;
  feature?: string;
  tooltip?: string;
  hidden?: boolean;
  notInMenu?: boolean;
  /** An external link: the menu opens it in a new tab (spec §2.2). */
  href?: string;
  /** An area that is not built yet: the menu marks it "Coming soon" and its page says so. */
  comingSoon?: boolean;
  children?: RouteItem[];
};

export const ZRouteItem: z.ZodType<RouteItem> = z
  .lazy(() =>
    z.object({
      path: z.string(),
      name: z.string(),
      title: z.string(),
      icon: z.string().optional(),
      roles: z.array(z.enum(['general', 'management-admin', 'management-sales'])).optional(),
      category: z.enum(ROUTE_CATEGORIES).optional(),
      order: z.number().optional(),
      feature: z.string().optional(),
      tooltip: z.string().optional(),
      hidden: z.boolean().optional(),
      notInMenu: z.boolean().optional(),
      href: z.string().optional(),
      comingSoon: z.boolean().optional(),
      children: z.array(ZRouteItem).optional(),
    }),
  )
  .meta({ id: 'RouteItem' });
export const ZRoutesResponse = z.object({ routes: z.array(ZRouteItem) }).meta({ id: 'RoutesResponse' });

/**
 * Services that answer their status check but have nothing else yet: their areas (bridges) are
 * marked `comingSoon` in the catalogue below, and
 * the help page does not report them as working. A service leaves this list with its area's screens.
 */
export const COMING_SOON_SERVICES = ['bridge'] as const satisfies readonly ServiceName[];

/**
 * The signed-in route catalogue of both spec documents (§2.3 and the second document's §2).
 * The server filters it per user; the SPA renders only what it receives.
 */
export function routeCatalogue(
  productSlug: string,
  productName: string,
  documentationUrl = 'https://docs.quant.network/',
): RouteItem[] {
  const flows = `/${productSlug}-flows`;
  return [
    {
      path: '/beta/features',
      name: 'beta',
      title: 'Connect Beta',
      icon: 'science',
      roles: ['general'],
      category: 'Core',
      order: 0,
      feature: 'connectBeta',
    },
    {
      path: '/dashboard',
      name: 'dashboard',
      title: 'Dashboard',
      icon: 'dashboard',
      roles: ['general'],
      category: 'Core',
      order: 1,
    },
    {
      path: `/${productSlug}-authorise`,
      name: 'authorise',
      title: `${productName} Authorise`,
      icon: 'verified_user',
      roles: ['general'],
      category: 'Core',
      order: 2,
    },
    {
      path: flows,
      name: 'flows',
      title: `${productName} Flows`,
      icon: 'token',
      roles: ['general'],
      category: 'Developer Hub',
      order: 3,
      children: [
        {
          path: `${flows}/token-flow`,
          name: 'token-flow',
          title: 'Token Flow',
        },
        {
          path: `${flows}/token-flow/deploy/create-new-smart-contract`,
          name: 'create-new-smart-contract',
          title: 'Create new smart contract',
          hidden: true,
        },
        {
          path: `${flows}/token-flow/:type/:tierCode`,
          name: 'coin-details',
          title: 'Coin details',
          hidden: true,
        },
        {
          path: `${flows}/token-flow/payments`,
          name: 'payments',
          title: 'Payments',
          hidden: true,
        },
        {
          path: `${flows}/token-flow/sustainability`,
          name: 'sustainability',
          title: 'Sustainability',
          hidden: true,
        },
        {
          path: `${flows}/kyc`,
          name: 'flows-kyc',
          title: 'Identity verification',
          hidden: true,
        },
        {
          path: `${flows}/bridge-flow`,
          name: 'bridge-flow',
          comingSoon: true,
          title: 'Bridge Flow',
          feature: 'bridge',
          children: [
            {
              path: `${flows}/bridge-flow/deploy`,
              name: 'bridge-deploy',
              title: 'Deploy',
              hidden: true,
              feature: 'bridge',
            },
            {
              path: `${flows}/bridge-flow/deploy/create-new-bridge`,
              name: 'create-new-bridge',
              title: 'Create new bridge',
              hidden: true,
              feature: 'bridge',
            },
            {
              path: `${flows}/bridge-flow/digital-asset-bridge`,
              name: 'digital-asset-bridge',
              title: 'Digital asset bridge',
              hidden: true,
              feature: 'bridge',
            },
            {
              path: `${flows}/bridge-flow/token-bridge`,
              name: 'token-bridge',
              title: 'Token bridge',
              hidden: true,
              feature: 'bridge',
            },
          ],
        },
      ],
    },
    {
      path: '/my-applications',
      name: 'my-applications',
      title: 'My applications',
      icon: 'apps',
      roles: ['general'],
      category: 'Developer Hub',
      order: 4,
      children: [
        {
          path: '/my-applications/register-new-application',
          name: 'register-new-application',
          title: 'Register new application',
          hidden: true,
        },
        {
          path: '/my-applications/kyc',
          name: 'applications-kyc',
          title: 'Identity verification',
          hidden: true,
        },
      ],
    },
    {
      path: '/my-networks',
      name: 'my-networks',
      title: 'My networks',
      icon: 'hub',
      roles: ['general'],
      category: 'Core',
      order: 5,
      feature: 'mynetworks:v2',
      children: [
        {
          path: '/my-networks/select-new-networks',
          name: 'select-new-networks',
          title: 'Select new networks',
          hidden: true,
        },
        {
          path: '/my-networks/connect-private-network',
          name: 'connect-private-network',
          title: 'Connect private network',
          hidden: true,
          feature: 'privateNetwork',
        },
      ],
    },
    {
      // Issue 17: every credit traced to what used it. Listed with My applications in the menu (its
      // category); the order value places it after My networks, before Quant Fusion.
      path: '/usage',
      name: 'usage',
      title: 'Usage',
      icon: 'query_stats',
      roles: ['general'],
      category: 'Developer Hub',
      order: 5.2,
    },
    {
      path: '/quant-fusion',
      name: 'quant-fusion',
      comingSoon: true,
      title: 'Quant Fusion',
      icon: 'layers',
      roles: ['general'],
      category: 'Core',
      order: 5.5,
      children: [
        {
          path: '/quant-fusion/multi-ledger-rollup/transaction-explorer',
          name: 'transaction-explorer',
          comingSoon: true,
          title: 'Transaction explorer',
        },
        {
          path: '/quant-fusion/multi-ledger-rollup/smart-contract-explorer',
          name: 'smart-contract-explorer',
          comingSoon: true,
          title: 'Smart contract explorer',
        },
      ],
    },
    {
      path: '/rewards',
      name: 'rewards',
      title: 'Rewards',
      icon: 'redeem',
      roles: ['general'],
      category: 'Core',
      order: 6,
      feature: 'reward',
      children: [
        {
          path: '/rewards/history',
          name: 'rewards-history',
          title: 'History',
          hidden: true,
          feature: 'reward',
        },
      ],
    },
    {
      path: '/documentation',
      name: 'documentation',
      title: 'Documentation',
      icon: 'menu_book',
      roles: ['general'],
      category: 'Core',
      order: 7,
      href: documentationUrl,
    },
    {
      path: '/my-account',
      name: 'my-account',
      title: 'My account',
      roles: ['general'],
      hidden: true,
      children: [
        {
          path: '/my-account/kyc',
          name: 'profile-kyc',
          title: 'Profile KYC',
          hidden: true,
        },
      ],
    },
    {
      // Issue 18: the account's invoices, and one invoice's printable page.
      path: '/invoices/my-invoices',
      name: 'my-invoices',
      title: 'My Invoices',
      roles: ['general'],
      hidden: true,
      children: [{ path: '/invoices/my-invoices/:invoiceId', name: 'invoice', title: 'Invoice', hidden: true }],
    },
    {
      path: '/support',
      name: 'support',
      title: 'Support',
      roles: ['general'],
      hidden: true,
      children: [
        { path: '/support/faq', name: 'faq', title: 'FAQ', hidden: true },
        { path: '/support/help', name: 'help', title: 'Support', hidden: true },
      ],
    },
    {
      path: '/account-plan/upgrade',
      // Spec §2: named '{product} Purchase Journey' (names are ids, in the slug form of the others).
      name: `${productSlug}-purchase-journey`,
      title: 'Upgrade Plan',
      roles: ['general'],
      notInMenu: true,
    },
    {
      // Issue 16: the card sandbox's stand-in for the bank's authentication (Stripe's test 3D Secure
      // page). The sandbox sends a payment there when its card asks for authentication.
      path: '/card-sandbox/authenticate',
      name: 'card-sandbox-authenticate',
      title: 'Authenticate payment',
      roles: ['general'],
      notInMenu: true,
    },
    {
      path: '/user-management',
      name: 'user-management',
      title: 'User management',
      icon: 'group',
      roles: ['management-admin'],
      category: 'Connect Admin',
      order: 8,
    },
    {
      path: '/account-management',
      name: 'account-management',
      title: 'Account management',
      icon: 'business',
      roles: ['management-sales'],
      category: 'Connect Admin',
      order: 9,
    },
    {
      path: '/application-management',
      name: 'application-management',
      title: 'Application management',
      icon: 'settings_applications',
      roles: ['management-admin'],
      category: 'Connect Admin',
      order: 10,
    },
    {
      // Issue 33 §3: the plan catalogue customers buy from (spec §2: the subscription tier form).
      path: '/subscription-management',
      name: 'subscription-management',
      title: 'Subscription tiers',
      icon: 'sell',
      roles: ['management-admin'],
      category: 'Connect Admin',
      order: 10.25,
    },
    {
      // Issue 33 §4: the private networks customers submitted, to approve or reject.
      path: '/network-review',
      name: 'network-review',
      title: 'Network review',
      icon: 'fact_check',
      roles: ['management-admin'],
      category: 'Connect Admin',
      order: 10.5,
    },
    {
      // Issue 33 §5: every account's orders, to record a bank transfer or refund a paid order.
      path: '/order-management',
      name: 'order-management',
      title: 'Orders',
      icon: 'receipt_long',
      roles: ['management-admin'],
      category: 'Connect Admin',
      order: 10.75,
    },
    {
      path: '/campaign-management',
      name: 'campaign-management',
      title: 'Campaign management',
      icon: 'campaign',
      roles: ['management-admin'],
      category: 'Connect Admin',
      order: 11,
      feature: 'reward',
      children: [
        {
          path: '/campaign-management/:campaignId',
          name: 'task-management',
          title: 'Task Management',
          hidden: true,
          feature: 'reward',
        },
      ],
    },
    {
      path: '/claim-management',
      name: 'claim-management',
      title: 'Claim management',
      icon: 'paid',
      roles: ['management-admin'],
      category: 'Connect Admin',
      order: 12,
    },
    {
      // Issue 35 §1: Connect Beta's catalogue, who opted in to what, and the invitations.
      path: '/beta-management',
      name: 'beta-management',
      title: 'Beta management',
      icon: 'biotech',
      roles: ['management-admin'],
      category: 'Connect Admin',
      order: 12.5,
    },
    {
      // Issue 32 §1: what staff did, and the staff alerts to acknowledge.
      path: '/audit-log',
      name: 'audit-log',
      title: 'Audit log',
      icon: 'history',
      roles: ['management-admin'],
      category: 'Connect Admin',
      order: 13,
    },
  ];
}

/**
 * Route access of spec §5: no role metadata → open to all; otherwise at least one listed group
 * must admit the role; a route whose feature is unavailable is dropped; children recursively.
 */
export function filterRoutes(routes: RouteItem[], role: Role, features: TAvailableFeatures): RouteItem[] {
  return routes.flatMap((route) => {
    if (route.roles && !roleInGroups(role, route.roles)) return [];
    if (route.feature && !isFeatureAvailable(features, route.feature)) return [];
    const { children, ...rest } = route;
    return [children ? { ...rest, children: filterRoutes(children, role, features) } : rest];
  });
}
