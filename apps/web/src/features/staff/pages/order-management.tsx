import Box from '@mui/material/Box';
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import Button from '@mui/material/Button';
import {
  MANAGEMENT_ORDER_SORT_FIELDS,
  ORDER_STATUSES,
  type TManagementOrder,
  type TManagementOrderSortField,
  type TOrderStatus,
} from '@connect/shared';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FilterSelect } from '../../../components/list/list-toolbar.tsx';
import { Page } from '../../../components/page.tsx';
import { StaffList, StaffListEmpty } from '../../../components/staff-list/staff-list.tsx';
import { useStaffListState } from '../../../components/staff-list/use-staff-list-state.ts';
import { paths } from '../../../config/paths.ts';
import { useManagementOrders } from '../api/get-management-orders.ts';
import { orderColumns } from '../components/order-columns.tsx';
import { RecordReceiptDialog } from '../components/record-receipt-dialog.tsx';
import { RefundOrderDialog } from '../components/refund-order-dialog.tsx';

const DEFAULT_SORT = { field: 'createdAt', direction: 'desc' } as const satisfies {
  field: TManagementOrderSortField;
  direction: 'desc';
};
const FILTERS = ['status'] as const;
type StatusValue = Lowercase<TOrderStatus>;

function statusOf(value: string | undefined): TOrderStatus | undefined {
  return ORDER_STATUSES.find((status) => status === value?.toUpperCase());
}

/**
 * Orders (issue 33 §5; management-admin): every account's orders in the staff list, newest first,
 * by status and searched by the payment reference a customer quotes or by their account — where
 * staff find a bank transfer that arrived and record it, or refund a paid order the way it was
 * paid. The account's panel is a click away on Account management.
 */
export function OrderManagementPage() {
  const { t } = useTranslation('staff');
  const navigate = useNavigate();
  const state = useStaffListState({
    sortFields: MANAGEMENT_ORDER_SORT_FIELDS,
    defaultSort: DEFAULT_SORT,
    filters: FILTERS,
  });
  const status = statusOf(state.filters.status);
  const orders = useManagementOrders({ ...state.wire, ...(status ? { status } : {}) });
  const [receiptFor, setReceiptFor] = useState<TManagementOrder | null>(null);
  const [refundFor, setRefundFor] = useState<TManagementOrder | null>(null);
  const columns = useMemo(
    () =>
      orderColumns({
        t,
        onReceipt: setReceiptFor,
        onRefund: setRefundFor,
        onAccount: (order) =>
          void navigate(
            `${paths.accountManagement}?search=${encodeURIComponent(order.organisationName || order.ownerEmail || '')}`,
          ),
      }),
    [t, navigate],
  );

  return (
    <Page title={t('orders.title')} description={t('orders.description')}>
      <StaffList
        label={t('orders.listLabel')}
        state={state}
        rows={orders.data?.orderList ?? []}
        paging={orders.data}
        isFetching={orders.isFetching}
        error={orders.error}
        onRetry={() => void orders.refetch()}
        errorTitle={t('orders.loadError')}
        columns={columns}
        getRowId={(order) => order.id}
        searchLabel={t('orders.search')}
        filters={
          <Box sx={{ width: 220 }}>
            <FilterSelect<StatusValue>
              label={t('orders.filters.status')}
              allLabel={t('orders.filters.allStatuses')}
              value={status ? (status.toLowerCase() as StatusValue) : ''}
              onChange={(value) => state.setFilter('status', value || undefined)}
              options={ORDER_STATUSES.map((value) => ({
                value: value.toLowerCase() as StatusValue,
                label: t(`accounts.billing.orderStatuses.${value}`),
              }))}
              minWidth={190}
            />
          </Box>
        }
        empty={
          state.isFiltered ? (
            <StaffListEmpty
              icon={<SearchOffIcon />}
              text={t('orders.empty.filtered')}
              action={
                <Button size="small" onClick={state.clearFilters}>
                  {t('list.clear')}
                </Button>
              }
            />
          ) : (
            <StaffListEmpty icon={<ReceiptLongOutlinedIcon />} text={t('orders.empty.none')} />
          )
        }
      />
      {receiptFor ? (
        <RecordReceiptDialog accountId={receiptFor.accountId} order={receiptFor} onClose={() => setReceiptFor(null)} />
      ) : null}
      {refundFor ? (
        <RefundOrderDialog accountId={refundFor.accountId} order={refundFor} onClose={() => setRefundFor(null)} />
      ) : null}
    </Page>
  );
}
