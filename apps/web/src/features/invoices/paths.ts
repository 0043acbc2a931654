import { paths } from '../../config/paths.ts';

/** The routes of the invoices (issue 18); the router and the pages share them. */
export const invoicePaths = {
  list: paths.invoices,
  /** The router's pattern of one invoice's page. */
  detailPattern: `${paths.invoices}/:invoiceId`,
  detail: (invoiceId: string) => `${paths.invoices}/${encodeURIComponent(invoiceId)}`,
  plans: paths.accountPlanUpgrade,
} as const;
