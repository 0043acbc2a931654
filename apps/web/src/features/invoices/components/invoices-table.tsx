import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { TInvoiceRow, TInvoiceSort, TInvoiceSortField } from '@connect/shared';
import { RowActionsMenu } from '../../../components/list/list-table.tsx';
import { visuallyHidden } from '../../../components/visually-hidden.ts';
import { formatDate } from '../../../lib/format.ts';
import { formatGbp } from '../../../lib/plans/money.ts';
import { invoicePaths } from '../paths.ts';
import { InvoiceStatusChips } from './invoice-status.tsx';

export type InvoiceAction = 'pdf' | 'csv' | 'payQnt';

/** The sortable columns of spec §3's table, in its order; Last Change Date and Actions follow, not sortable. */
const SORTABLE: TInvoiceSortField[] = ['invoiceNumber', 'startDate', 'endDate', 'subtotal', 'status'];

/**
 * My Invoices' table (spec §3): the seven columns, the five sortable headers showing the one
 * marker of the sort (spec §4's cycle is the page's: this table only reports the click), and a
 * row actions menu.
 */
export function InvoicesTable({
  invoices,
  sort,
  onSort,
  onAction,
}: {
  invoices: TInvoiceRow[];
  sort: TInvoiceSort;
  onSort: (field: TInvoiceSortField) => void;
  onAction: (invoice: TInvoiceRow, action: InvoiceAction) => void;
}) {
  const { t } = useTranslation('bill');
  return (
    <Table stickyHeader>
      <Box component="caption" sx={visuallyHidden}>
        {t('caption')}
      </Box>
      <TableHead>
        <TableRow>
          {SORTABLE.map((field) => {
            const isActive = sort?.field === field;
            return (
              <TableCell
                key={field}
                align={field === 'subtotal' ? 'right' : 'left'}
                sortDirection={isActive ? sort.direction : false}
              >
                <TableSortLabel
                  active={isActive}
                  // An unmarked column shows the arrow it would take: descending (spec §4).
                  direction={isActive ? sort.direction : 'desc'}
                  onClick={() => onSort(field)}
                >
                  {t(`columns.${field}`)}
                  {isActive ? (
                    <Box component="span" sx={visuallyHidden}>
                      {sort.direction === 'desc' ? t('sortedDescending') : t('sortedAscending')}
                    </Box>
                  ) : null}
                </TableSortLabel>
              </TableCell>
            );
          })}
          <TableCell>{t('columns.lastUpdatedAt')}</TableCell>
          <TableCell align="right">{t('columns.actions')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {invoices.map((invoice) => (
          <TableRow key={invoice.id} hover>
            <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
              <Link component={RouterLink} to={invoicePaths.detail(invoice.id)}>
                {invoice.invoiceNumber}
              </Link>
            </TableCell>
            <TableCell>{formatDate(invoice.startDate)}</TableCell>
            <TableCell>{formatDate(invoice.endDate)}</TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {formatGbp(invoice.subtotal)}
            </TableCell>
            <TableCell>
              <InvoiceStatusChips invoice={invoice} />
            </TableCell>
            <TableCell>{formatDate(invoice.lastUpdatedAt)}</TableCell>
            <TableCell align="right">
              <RowActionsMenu
                label={t('actions.menu', { number: invoice.invoiceNumber })}
                menuId={`invoice-actions-${invoice.id}`}
              >
                {(close) => [
                  <MenuItem key="details" component={RouterLink} to={invoicePaths.detail(invoice.id)}>
                    {t('actions.details')}
                  </MenuItem>,
                  <MenuItem
                    key="pdf"
                    onClick={() => {
                      close();
                      onAction(invoice, 'pdf');
                    }}
                  >
                    {t('actions.pdf')}
                  </MenuItem>,
                  <MenuItem
                    key="csv"
                    onClick={() => {
                      close();
                      onAction(invoice, 'csv');
                    }}
                  >
                    {t('actions.csv')}
                  </MenuItem>,
                  invoice.status === 'OPEN' ? (
                    <MenuItem
                      key="payQnt"
                      onClick={() => {
                        close();
                        onAction(invoice, 'payQnt');
                      }}
                    >
                      {t('actions.payQnt')}
                    </MenuItem>
                  ) : null,
                ]}
              </RowActionsMenu>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
