import { paths } from '../../config/paths.ts';

/** The routes of this area (spec §2.3); the router and the pages share them. */
export const applicationPaths = {
  list: paths.myApplications,
  register: paths.registerApplication,
  kyc: paths.myApplicationsKyc,
  myNetworks: paths.myNetworks,
  selectNetworks: paths.selectNewNetworks,
  upgrade: paths.accountPlanUpgrade,
} as const;
