import { redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { AuthLayout } from '../components/layouts/auth-layout.tsx';
import { NotFoundPage } from '../components/not-found.tsx';
import { paths } from '../config/paths.ts';
import { signOutEverywhere } from '../lib/auth.ts';
import { i18next, type Namespace } from '../lib/i18n.ts';
import { runtimeConfig } from '../lib/runtime-config.ts';
import { session } from '../lib/storage.ts';
import { gate } from './gate.ts';
import { loadChunk } from './lazy.ts';
import { RouteError } from './route-error.tsx';
import { Root } from './root.tsx';

/**
 * The requests a signed-in page makes on its first render, started as soon as the gate lets a
 * navigation to it through (after its checks, so a user the gate sends elsewhere asks nothing
 * more): they run while the page's chunks load and the frame renders, not after. The dashboard,
 * where signing in lands, is the one measured (bench:web, issue 30).
 */
const PREFETCH_ON_ALLOW: Record<string, (userUuid: string) => Promise<void>> = {
  [paths.dashboard]: async (userUuid) => (await dashboardPrefetchModule()).prefetchDashboard(userUuid),
};

// The signed-in frame and the dashboard, where signing in lands: named, so that a signed-in start
// on the dashboard can ask for them before the router exists (preloadSignedInStart).
const mainLayoutModule = () => import('../components/layouts/main-layout/main-layout.tsx');
const dashboardModule = () => import('../features/dashboard/pages/dashboard.tsx');
const appScopeModule = () => import('./app-scope.tsx');
const dashboardPrefetchModule = () => import('../features/dashboard/api/prefetch.ts');
// The staff pages from one module, so they and the DataGrid load as one chunk (staff-pages.ts).
const staffPagesModule = () => import('../features/staff/pages/staff-pages.ts');
const rewardPagesModule = () => import('../features/rewards/pages/reward-pages.ts');

/**
 * On a signed-in start at /dashboard (a reload, a bookmark, a new tab), fetches the frame's and
 * the page's chunks (MUI with them) and the gate's prefetch of its requests as soon as the frame's
 * placeholder has painted (main.tsx), instead of once the router is: Lighthouse's /dashboard
 * requested them ~0.6 s after Amplify (load average ~20). The route's `lazy` gets the same modules.
 */
export function preloadSignedInStart(pathname: string): void {
  if (pathname !== paths.dashboard) return;
  for (const load of [mainLayoutModule, appScopeModule, dashboardModule, dashboardPrefetchModule])
    void load().catch(() => undefined);
}

/** Runs the gate of spec §4 before every navigation. */
export async function gateLoader({ request }: LoaderFunctionArgs) {
  const pathname = new URL(request.url).pathname;
  const result = await gate({
    pathname,
    hasSession: session.hasMarker(),
    load: async () => {
      // Loaded with the first signed-in navigation: public pages do not need the user's schemas.
      const [{ currentUserQuery, userRoutesQuery }, { queryClient }] = await Promise.all([
        import('../lib/current-user.ts'),
        import('../lib/query-client.ts'),
      ]);
      const userUuid = session.userUuid()!;
      const [user, routes] = await Promise.all([
        queryClient.fetchQuery(currentUserQuery(userUuid)),
        queryClient.fetchQuery(userRoutesQuery(userUuid)),
      ]);
      return { user, routes };
    },
    endSession: async () => {
      session.removeMarker();
      // Loaded only if a signed-in page ever loaded it: otherwise there is nothing to clear.
      (await import('../lib/query-client.ts')).queryClient.clear();
      await signOutEverywhere();
    },
  });
  if ('redirect' in result) throw redirect(result.redirect);
  // Only a head start: the page asks again for what failed here.
  if (result.user) void PREFETCH_ON_ALLOW[pathname]?.(result.user.id).catch(() => undefined);
  return null;
}

/**
 * A lazily loaded page or layout: `Component` from the module, behind the chunk-load rules. The
 * texts it shows load alongside, so it does not suspend for them once rendered. `mui` puts it in
 * the MUI theme and TanStack Query's provider (app/app-scope.tsx), loaded alongside too: every
 * route but /login and the plain pages of the shell uses them; a page under such a layout is
 * already inside.
 */
function page<T extends Record<string, unknown>>(
  importer: () => Promise<T>,
  name: keyof T,
  namespaces: Namespace[] = [],
  { mui = false }: { mui?: boolean } = {},
) {
  return async () => {
    const [module, scope] = await Promise.all([
      loadChunk(importer),
      mui ? loadChunk(appScopeModule) : undefined,
      // Only a head start: a page whose texts failed to load still asks for them when it renders.
      namespaces.length ? i18next.loadNamespaces(namespaces).catch(() => undefined) : undefined,
    ]);
    const Component = module[name] as React.ComponentType;
    return { Component: scope ? scope.inAppScope(Component) : Component };
  };
}

/** A public page other than /login: it still uses MUI parts (checkboxes, status panels…) and queries. */
function muiPage<T extends Record<string, unknown>>(importer: () => Promise<T>, name: keyof T) {
  return page(importer, name, [], { mui: true });
}

/**
 * Marks a route whose loader always redirects: it never renders, and `element: null` says so to
 * React Router, which otherwise warns on every visit that the matched leaf has nothing to render.
 */
const REDIRECT_ONLY = { element: null } as const;

/** The route table. Signed-in pages are listed here; the server's route list decides who reaches them. */
export function buildRoutes(): RouteObject[] {
  const slug = runtimeConfig().productSlug;
  const flows = paths.flows(slug);
  return [
    {
      id: 'root',
      Component: Root,
      loader: gateLoader,
      // The gate runs on every navigation, not only when search params change.
      shouldRevalidate: () => true,
      errorElement: <RouteError />,
      HydrateFallback: () => null,
      children: [
        { index: true, loader: () => redirect(paths.login), ...REDIRECT_ONLY },
        { path: paths.upgrade, loader: () => redirect(paths.accountPlanUpgrade), ...REDIRECT_ONLY },
        // The breadcrumb's "Account plan" leads to the journey too.
        { path: '/account-plan', loader: () => redirect(paths.accountPlanUpgrade), ...REDIRECT_ONLY },
        {
          Component: AuthLayout,
          children: [
            {
              path: paths.login,
              handle: { title: 'titles.login' },
              lazy: page(() => import('../features/auth/pages/login.tsx'), 'LoginPage'),
            },
            {
              path: paths.register,
              handle: { title: 'titles.register' },
              lazy: muiPage(() => import('../features/auth/pages/register.tsx'), 'RegisterPage'),
            },
            {
              path: paths.registerConfirmation,
              handle: { title: 'titles.registerConfirmation' },
              lazy: muiPage(
                () => import('../features/auth/pages/register-confirmation.tsx'),
                'RegisterConfirmationPage',
              ),
            },
            {
              path: paths.registerConfirmed,
              handle: { title: 'titles.registerConfirmed' },
              lazy: muiPage(() => import('../features/auth/pages/register-confirmed.tsx'), 'RegisterConfirmedPage'),
            },
            {
              path: paths.activation,
              handle: { title: 'titles.activation' },
              lazy: muiPage(() => import('../features/auth/pages/activation.tsx'), 'ActivationPage'),
            },
            {
              path: paths.forgotPassword,
              handle: { title: 'titles.forgotPassword' },
              lazy: muiPage(() => import('../features/auth/pages/forgot-password.tsx'), 'ForgotPasswordPage'),
            },
            {
              path: paths.forgotPasswordReset,
              handle: { title: 'titles.forgotPasswordReset' },
              lazy: muiPage(
                () => import('../features/auth/pages/forgot-password-reset.tsx'),
                'ForgotPasswordResetPage',
              ),
            },
            {
              path: paths.resetPasswordConfirmation,
              handle: { title: 'titles.resetPasswordConfirmation' },
              lazy: muiPage(
                () => import('../features/auth/pages/reset-password-confirmation.tsx'),
                'ResetPasswordConfirmationPage',
              ),
            },
            {
              path: paths.newPassword,
              handle: { title: 'titles.newPassword' },
              lazy: muiPage(() => import('../features/auth/pages/new-password.tsx'), 'NewPasswordPage'),
            },
            {
              path: paths.mfaSubmit,
              handle: { title: 'titles.mfaSubmit' },
              // Spec §2.1: only while a challenged user is pending.
              loader: () => (session.challengedUser() ? null : redirect(paths.login)),
              lazy: muiPage(() => import('../features/auth/pages/mfa-submit.tsx'), 'MfaSubmitPage'),
            },
          ],
        },
        {
          path: paths.devMailbox,
          handle: { title: 'titles.devMailbox' },
          lazy: page(() => import('../features/dev-mailbox/pages/dev-mailbox.tsx'), 'DevMailboxPage', ['account'], {
            mui: true,
          }),
        },
        {
          // Layouts of signed-in pages load with their pages, so /login does not carry them.
          lazy: page(() => import('../components/layouts/blank-layout.tsx'), 'BlankLayout', ['account'], { mui: true }),
          children: [
            {
              path: paths.termsConditions,
              handle: { title: 'titles.termsConditions' },
              lazy: page(() => import('../features/onboarding/pages/terms-conditions.tsx'), 'TermsConditionsPage'),
            },
            {
              path: paths.userDetails,
              handle: { title: 'titles.userDetails' },
              lazy: page(() => import('../features/onboarding/pages/user-details.tsx'), 'UserDetailsPage'),
            },
            {
              path: paths.mfaSetup,
              handle: { title: 'titles.mfaSetup' },
              lazy: page(() => import('../features/onboarding/pages/mfa-setup.tsx'), 'MfaSetupPage'),
            },
          ],
        },
        {
          lazy: page(mainLayoutModule, 'MainLayout', ['layout', 'account'], { mui: true }),
          children: [
            {
              path: paths.dashboard,
              handle: { title: 'titles.dashboard' },
              lazy: page(dashboardModule, 'DashboardPage'),
            },
            {
              path: paths.myAccount,
              handle: { title: 'titles.myAccount' },
              // The texts of a QNT payment (components/qnt) are the account plan's.
              lazy: page(() => import('../features/account/pages/my-account.tsx'), 'MyAccountPage', ['accountPlan']),
            },
            {
              path: paths.supportFaq,
              handle: { title: 'titles.faq' },
              lazy: page(() => import('../features/support/pages/faq.tsx'), 'FaqPage'),
            },
            {
              path: paths.supportHelp,
              handle: { title: 'titles.help' },
              lazy: page(() => import('../features/support/pages/help.tsx'), 'HelpPage'),
            },
            { path: paths.support, loader: () => redirect(paths.supportFaq), ...REDIRECT_ONLY },
            {
              path: paths.authorise(slug),
              handle: { title: 'titles.authorise' },
              lazy: page(() => import('../features/authorise/pages/authorise.tsx'), 'AuthorisePage', ['authoriseFlow']),
            },
            {
              path: paths.documentation,
              // Spec §2.3: opens the developer documentation in a new tab and cancels navigation.
              loader: ({ request }) => {
                window.open(runtimeConfig().documentationUrl, '_blank', 'noopener');
                const from = new URL(request.url).searchParams.get('from');
                return redirect(from && from.startsWith('/') ? from : paths.dashboard);
              },
              ...REDIRECT_ONLY,
            },
            { path: flows, loader: () => redirect(`${flows}/token-flow`), ...REDIRECT_ONLY },
            // Identity verification: one page at the three routes of spec §2.3.
            ...[paths.flowsKyc(slug), paths.myApplicationsKyc, paths.myAccountKyc].map((path) => ({
              path,
              handle: { title: 'titles.kyc' },
              lazy: page(() => import('../features/kyc/pages/kyc.tsx'), 'KycPage', ['kyc']),
            })),
            {
              path: paths.myApplications,
              handle: { title: 'titles.myApplications' },
              lazy: page(() => import('../features/applications/pages/my-applications.tsx'), 'MyApplicationsPage', [
                'applicationManager',
              ]),
            },
            {
              path: paths.registerApplication,
              handle: { title: 'applicationManager:stepper.title' },
              lazy: page(
                () => import('../features/applications/pages/register-application.tsx'),
                'RegisterApplicationPage',
                ['applicationManager'],
              ),
            },
            {
              path: paths.myNetworks,
              handle: { title: 'titles.myNetworks' },
              lazy: page(() => import('../features/networks/pages/my-networks.tsx'), 'MyNetworksPage', ['integrate']),
            },
            {
              path: paths.usage,
              handle: { title: 'titles.usage' },
              // The charts library loads with this page only.
              lazy: page(() => import('../features/usage/pages/usage.tsx'), 'UsagePage', ['usage']),
            },
            // Invoices (issue 18): the list and one invoice's printable page, in a chunk of their own.
            {
              path: paths.invoices,
              handle: { title: 'titles.invoices' },
              lazy: page(() => import('../features/invoices/pages/my-invoices.tsx'), 'MyInvoicesPage', [
                'bill',
                'accountPlan',
              ]),
            },
            {
              path: `${paths.invoices}/:invoiceId`,
              handle: { title: 'titles.invoice' },
              lazy: page(() => import('../features/invoices/pages/invoice.tsx'), 'InvoicePage', [
                'bill',
                'accountPlan',
              ]),
            },
            {
              path: paths.selectNewNetworks,
              handle: { title: 'integrate:select.title' },
              // Spec §5: identity not verified → the verification page with selectNetworks=true.
              // Loaded on use, so the first page's bundle does not carry the user query.
              loader: async () => (await import('../features/networks/guard.ts')).selectNetworksGuard(),
              lazy: page(() => import('../features/networks/pages/select-new-networks.tsx'), 'SelectNewNetworksPage', [
                'integrate',
              ]),
            },
            {
              path: paths.connectPrivateNetwork,
              handle: { title: 'integrate:private.title' },
              lazy: page(
                () => import('../features/networks/pages/connect-private-network.tsx'),
                'ConnectPrivateNetworkPage',
                ['integrate'],
              ),
            },
            // Token Flow (spec §2.3). Only the creation and coin details pages load the wallet layer.
            {
              path: paths.tokenFlow(slug),
              handle: { title: 'titles.tokenFlow' },
              lazy: page(() => import('../features/tokens/pages/token-flow.tsx'), 'TokenFlowPage', ['quantPortfolio']),
            },
            {
              path: paths.tokenPayments(slug),
              handle: { title: 'quantPortfolio:tiles.payments.title' },
              lazy: page(() => import('../features/tokens/pages/use-case.tsx'), 'PaymentsPage', ['quantPortfolio']),
            },
            {
              path: paths.tokenSustainability(slug),
              handle: { title: 'quantPortfolio:tiles.sustainability.title' },
              lazy: page(() => import('../features/tokens/pages/use-case.tsx'), 'SustainabilityPage', [
                'quantPortfolio',
              ]),
            },
            {
              path: paths.createSmartContract(slug),
              handle: { title: 'quantPortfolio:stepper.title' },
              // Spec §5: no quota → Token Flow; no networks → My networks with configureNetworks=true.
              loader: async () => (await import('../features/tokens/guard.ts')).createSmartContractGuard(),
              lazy: page(
                () => import('../features/tokens/pages/create-smart-contract.tsx'),
                'CreateSmartContractPage',
                ['quantPortfolio'],
              ),
            },
            // The crumbs of the deeper token pages (…/token-flow/qrc20, …/token-flow/deploy) lead back to the list.
            {
              path: `${paths.tokenFlow(slug)}/:segment`,
              loader: () => redirect(paths.tokenFlow(slug)),
              ...REDIRECT_ONLY,
            },
            {
              path: paths.coinDetails(slug),
              handle: { title: 'quantPortfolio:title' },
              lazy: page(() => import('../features/tokens/pages/coin-details.tsx'), 'CoinDetailsPage', [
                'quantPortfolio',
              ]),
            },
            // Spec §2.3 redirects; the pages they lead to arrive with their areas.
            {
              path: '/quant-fusion',
              loader: () => redirect('/quant-fusion/multi-ledger-rollup/transaction-explorer'),
              ...REDIRECT_ONLY,
            },
            {
              path: `${flows}/bridge-flow/deploy`,
              loader: () => redirect(`${flows}/bridge-flow/deploy/create-new-bridge`),
              ...REDIRECT_ONLY,
            },
            {
              path: paths.accountPlanUpgrade,
              handle: { title: 'titles.upgrade' },
              // Spec §2, §5: a PENDING plan without a payment's return parameters → the dashboard.
              loader: async ({ request }) => (await import('../features/account-plan/guard.ts')).upgradeGuard(request),
              lazy: page(() => import('../features/account-plan/pages/upgrade.tsx'), 'UpgradePage', ['accountPlan']),
            },
            {
              path: paths.cardSandboxAuthenticate,
              handle: { title: 'titles.cardAuthenticate' },
              lazy: page(
                () => import('../components/card/sandbox-authentication-page.tsx'),
                'SandboxAuthenticationPage',
                ['accountPlan'],
              ),
            },
            // The staff console (issues 32–34): one chunk for its pages and the DataGrid they share.
            ...staffRoutes(),
            {
              path: paths.rewards,
              handle: { title: 'titles.rewards' },
              lazy: page(rewardPagesModule, 'RewardsPage', ['reward']),
            },
            {
              path: paths.rewardsHistory,
              handle: { title: 'reward:history.title' },
              loader: async () => (await import('../features/rewards/guard.ts')).rewardsHistoryGuard(),
              shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.pathname !== nextUrl.pathname,
              lazy: page(rewardPagesModule, 'RewardsHistoryPage', ['reward']),
            },
            {
              path: paths.betaFeatures,
              handle: { title: 'titles.beta' },
              lazy: page(() => import('../features/beta/pages/beta-features.tsx'), 'BetaFeaturesPage', ['beta']),
            },
            ...comingSoonRoutes(slug),
          ],
        },
        { path: paths.notFound, handle: { title: 'titles.notFound' }, Component: NotFoundPage },
        { path: paths.notFoundAlias, handle: { title: 'titles.notFound' }, Component: NotFoundPage },
        { path: '*', loader: () => redirect(paths.notFound), ...REDIRECT_ONLY },
      ],
    },
  ];
}

type StaffPage = keyof Awaited<ReturnType<typeof staffPagesModule>>;

/** The staff console's pages (issues 32–34): path, title, the page's export and its texts. */
function staffRoutes(): RouteObject[] {
  const pages: [path: string, title: string, name: StaffPage, namespaces: Namespace[]][] = [
    [paths.userManagement, 'titles.userManagement', 'UserManagementPage', ['staff']],
    [paths.accountManagement, 'titles.accountManagement', 'AccountManagementPage', ['staff', 'account']],
    [paths.applicationManagement, 'titles.applicationManagement', 'ApplicationManagementPage', ['staff', 'account']],
    [paths.subscriptionManagement, 'titles.subscriptionManagement', 'SubscriptionTiersPage', ['staff']],
    [paths.auditLog, 'titles.auditLog', 'AuditLogPage', ['staff']],
    [paths.networkReview, 'titles.networkReview', 'NetworkReviewPage', ['staff']],
    [paths.orderManagement, 'titles.orderManagement', 'OrderManagementPage', ['staff']],
    // Rewards (issue 34 §1, §3): campaigns, a campaign's tasks (Task Management), claims.
    [paths.campaignManagement, 'titles.campaignManagement', 'CampaignManagementPage', ['staff']],
    [paths.taskManagement(), 'titles.taskManagement', 'TaskManagementPage', ['staff']],
    [paths.claimManagement, 'titles.claimManagement', 'ClaimManagementPage', ['staff']],
    // Connect Beta (issue 35 §1): the beta features, their opt-ins and invitations.
    [paths.betaManagement, 'titles.betaManagement', 'BetaManagementPage', ['staff']],
  ];
  return pages.map(([path, title, name, namespaces]) => ({
    path,
    handle: { title },
    lazy: page(staffPagesModule, name, namespaces),
  }));
}

/**
 * Areas listed in the route catalogue whose screens arrive with later issues: each shows a plain
 * panel saying so, and only when the server lists the route for the user.
 */
function comingSoonRoutes(slug: string): RouteObject[] {
  const flows = paths.flows(slug);
  const areas: [string, string][] = [
    [`${flows}/bridge-flow/*`, 'titles.bridgeFlow'],
    [`${flows}/bridge-flow`, 'titles.bridgeFlow'],
    ['/quant-fusion/*', 'titles.quantFusion'],
  ];
  return areas.map(([path, title]) => ({
    path,
    handle: { title },
    lazy: async () => {
      const { ComingSoonRoute } = await loadChunk(() => import('./coming-soon-route.tsx'));
      return { Component: () => <ComingSoonRoute titleKey={title} /> };
    },
  }));
}
