import Chip, { type ChipProps } from '@mui/material/Chip';
import type { GridColDef } from '@mui/x-data-grid';
import {
  CAMPAIGN_SORT_FIELDS,
  CAMPAIGN_STAFF_TRANSITIONS,
  type TCampaign,
  type TCampaignStatus,
} from '@connect/shared';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { StaffRowActions, type StaffRowAction } from '../../../components/staff-list/staff-row-actions.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { formatDay, formatRewardQnt } from './reward-format.ts';

// Spec §4 and shared/UI.md: ACTIVE green, PUBLISHED primary, DRAFT default, COMPLETED blue.
const CAMPAIGN_COLOURS: Record<TCampaignStatus, ChipProps['color']> = {
  ACTIVE: 'success',
  PUBLISHED: 'primary',
  DRAFT: 'default',
  COMPLETED: 'info',
};

export function CampaignStatusChip({ status }: { status: TCampaignStatus }) {
  const { t } = useTranslation('staff');
  return (
    <Chip size="small" variant="outlined" color={CAMPAIGN_COLOURS[status]} label={t(`campaigns.statuses.${status}`)} />
  );
}

/** A status change staff may ask for, named by where it leads (CAMPAIGN_STAFF_TRANSITIONS). */
export type CampaignTransition = 'PUBLISHED' | 'DRAFT' | 'COMPLETED';
export type CampaignAction = 'tasks' | 'edit' | 'delete' | CampaignTransition;

/** What the menu offers for a campaign: its tasks always; edit and delete while a draft; its transitions. */
export function campaignActionsOf(campaign: TCampaign): CampaignAction[] {
  const isDraft = campaign.status === 'DRAFT';
  return [
    'tasks',
    ...(isDraft ? (['edit'] as const) : []),
    ...(CAMPAIGN_STAFF_TRANSITIONS[campaign.status] as CampaignTransition[]),
    ...(isDraft ? (['delete'] as const) : []),
  ];
}

const isSortable = (field: string) => (CAMPAIGN_SORT_FIELDS as readonly string[]).includes(field);

/**
 * The campaign list's columns (spec §3 Campaign): name, visible name, QNT value, tasks, start,
 * end, participants (opted in of the places), status and the row's actions. Name, the dates and
 * the status sort (CAMPAIGN_SORT_FIELDS).
 */
export function campaignColumns({
  t,
  onAction,
}: {
  t: TFunction<'staff'>;
  onAction: (campaign: TCampaign, action: CampaignAction) => void;
}): GridColDef<TCampaign>[] {
  const day = (field: 'startDate' | 'endDate'): GridColDef<TCampaign> => ({
    field,
    headerName: t(`campaigns.columns.${field}`),
    minWidth: 110,
    sortable: isSortable(field),
    valueFormatter: (value: string) => formatDay(value),
  });
  return [
    { field: 'name', headerName: t('campaigns.columns.name'), flex: 1.2, minWidth: 150, sortable: isSortable('name') },
    {
      field: 'visibleName',
      headerName: t('campaigns.columns.visibleName'),
      flex: 1.2,
      minWidth: 150,
      sortable: false,
    },
    {
      field: 'qntValue',
      headerName: t('campaigns.columns.qntValue'),
      minWidth: 120,
      align: 'right',
      headerAlign: 'right',
      sortable: false,
      valueFormatter: (value: string) => formatRewardQnt(value),
    },
    {
      field: 'taskCount',
      headerName: t('campaigns.columns.taskCount'),
      minWidth: 80,
      align: 'right',
      headerAlign: 'right',
      sortable: false,
      valueFormatter: (value: number) => formatNumber(value),
    },
    day('startDate'),
    day('endDate'),
    {
      field: 'participants',
      headerName: t('campaigns.columns.participants'),
      minWidth: 120,
      align: 'right',
      headerAlign: 'right',
      sortable: false,
      valueGetter: (_value, row) =>
        t('campaigns.participantsOf', { optedIn: formatNumber(row.optedIn), places: formatNumber(row.participants) }),
    },
    {
      field: 'status',
      headerName: t('campaigns.columns.status'),
      minWidth: 120,
      sortable: isSortable('status'),
      renderCell: ({ row }) => <CampaignStatusChip status={row.status} />,
    },
    {
      field: 'actions',
      headerName: t('campaigns.columns.actions'),
      width: 75,
      sortable: false,
      align: 'right',
      headerAlign: 'right',
      renderCell: ({ row, hasFocus, tabIndex }) => {
        const actions: StaffRowAction[] = campaignActionsOf(row).map((action) => ({
          key: action,
          label: t(`campaigns.actions.${action}`),
          onClick: () => onAction(row, action),
          isDestructive: action === 'delete' || action === 'COMPLETED',
        }));
        return (
          <StaffRowActions
            label={t('campaigns.actions.menu', { name: row.name })}
            actions={actions}
            hasFocus={hasFocus}
            tabIndex={tabIndex}
          />
        );
      },
    },
  ];
}
