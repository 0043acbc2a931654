import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import type { GridColDef } from '@mui/x-data-grid';
import type { TAccountDetailOrder, TManagementOrder } from '@connect/shared';
import type { TFunction } from 'i18next';
import { StaffRowActions, type StaffRowAction } from '../../../components/staff-list/staff-row-actions.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { formatGbp } from '../../../lib/plans/money.ts';
import { MONOSPACE } from './identifier.tsx';

export const ORDER_CHIP_COLOURS = { AWAITING_PAYMENT: 'warning', PAID: 'success', CANCELLED: 'default' } as const;

/** What staff may do to an order: record a bank transfer against an open one, refund a paid one the way it was paid. */
export function orderActionsOf(order: TAccountDetailOrder): { canRecord: boolean; canRefund: boolean } {
  return {
    canRecord: order.status === 'AWAITING_PAYMENT' && order.paymentMethod === 'BANK_TRANSFER',
    canRefund:
      order.status === 'PAID' &&
      (order.paidBy.includes('FIAT') || order.paidBy.includes('BANK_TRANSFER')) &&
      order.paidGbpMinor > order.refundedGbpMinor,
  };
}

/**
 * The orders screen's columns: reference, account, what was ordered and how it is paid, total,
 * received, status, placed; the row's actions record a receipt, refund, or open the account.
 */
export function orderColumns({
  t,
  onReceipt,
  onRefund,
  onAccount,
}: {
  t: TFunction<'staff'>;
  onReceipt: (order: TManagementOrder) => void;
  onRefund: (order: TManagementOrder) => void;
  onAccount: (order: TManagementOrder) => void;
}): GridColDef<TManagementOrder>[] {
  return [
    {
      field: 'reference',
      headerName: t('orders.columns.reference'),
      minWidth: 140,
      flex: 0.9,
      sortable: false,
      renderCell: ({ row }) => <Box sx={{ fontFamily: MONOSPACE }}>{row.reference}</Box>,
    },
    {
      field: 'organisationName',
      headerName: t('orders.columns.account'),
      minWidth: 170,
      flex: 1.3,
      sortable: false,
      valueGetter: (_value, row) => row.organisationName || row.ownerEmail || '–',
    },
    {
      field: 'planName',
      headerName: t('orders.columns.what'),
      minWidth: 130,
      flex: 1,
      sortable: false,
      valueGetter: (_value, row) =>
        `${row.planName ?? t(`accounts.billing.kinds.${row.kind}`)} · ${t(`accounts.billing.methods.${row.paymentMethod}`)}`,
    },
    {
      field: 'totalGbpMinor',
      headerName: t('orders.columns.total'),
      minWidth: 110,
      align: 'right',
      headerAlign: 'right',
      sortable: false,
      valueFormatter: (value: number) => formatGbp(value),
    },
    {
      field: 'paidGbpMinor',
      headerName: t('orders.columns.received'),
      minWidth: 110,
      align: 'right',
      headerAlign: 'right',
      sortable: false,
      valueFormatter: (value: number) => formatGbp(value),
    },
    {
      field: 'status',
      headerName: t('orders.columns.status'),
      minWidth: 130,
      sortable: false,
      renderCell: ({ row }) => (
        <Chip
          size="small"
          label={t(`accounts.billing.orderStatuses.${row.status}`)}
          color={ORDER_CHIP_COLOURS[row.status]}
        />
      ),
    },
    {
      field: 'createdAt',
      headerName: t('orders.columns.createdAt'),
      minWidth: 140,
      flex: 0.9,
      valueFormatter: (value: string) => formatDateTime(value),
    },
    {
      field: 'actions',
      headerName: t('accounts.columns.actions'),
      width: 75,
      sortable: false,
      align: 'right',
      headerAlign: 'right',
      renderCell: ({ row, hasFocus, tabIndex }) => {
        const { canRecord, canRefund } = orderActionsOf(row);
        const actions: StaffRowAction[] = [
          ...(canRecord ? [{ key: 'receipt', label: t('accounts.receipt.open'), onClick: () => onReceipt(row) }] : []),
          ...(canRefund
            ? [{ key: 'refund', label: t('accounts.refund.open'), onClick: () => onRefund(row), isDestructive: true }]
            : []),
          { key: 'account', label: t('orders.openAccount'), onClick: () => onAccount(row) },
        ];
        return (
          <StaffRowActions
            label={t('orders.actions', { reference: row.reference })}
            actions={actions}
            hasFocus={hasFocus}
            tabIndex={tabIndex}
          />
        );
      },
    },
  ];
}
