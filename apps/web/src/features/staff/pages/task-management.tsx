import AddIcon from '@mui/icons-material/Add';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ChecklistOutlinedIcon from '@mui/icons-material/ChecklistOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { TCampaignDetail, TTask, TTaskRequest } from '@connect/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useCrumbLabel } from '../../../components/layouts/main-layout/crumb-labels.ts';
import { Page } from '../../../components/page.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { StaffListEmpty } from '../../../components/staff-list/staff-list.tsx';
import { paths } from '../../../config/paths.ts';
import { isProblem, problemMessage } from '../../../lib/problems.ts';
import { useDeleteTask } from '../api/delete-task.ts';
import { useManagementCampaign } from '../api/get-management-campaign.ts';
import { useUpdateTask } from '../api/update-task.ts';
import type { CampaignTransition } from '../components/campaign-columns.tsx';
import { CampaignConfirmDialog } from '../components/campaign-confirm-dialog.tsx';
import { CampaignDialog } from '../components/campaign-dialog.tsx';
import { CampaignHeader } from '../components/campaign-header.tsx';
import { TaskDialog } from '../components/task-dialog.tsx';
import { TaskTable, TaskTableSkeleton, type TaskAction } from '../components/task-table.tsx';
import { formatRewardQnt } from '../components/reward-format.ts';

type Dialog =
  | { kind: 'createTask' }
  | { kind: 'editTask'; task: TTask }
  | { kind: 'deleteTask'; task: TTask }
  | { kind: 'editCampaign' }
  | { kind: CampaignTransition };

/** The whole task as PUT takes it, with another status: publishing and converting to draft. */
const requestOf = (task: TTask, status: TTask['status']): TTaskRequest => ({
  name: task.name,
  description: task.description,
  activityType: task.activity.type,
  threshold: task.threshold,
  value: task.value,
  status,
});

function DeleteTaskDialog({ task, onClose }: { task: TTask; onClose: () => void }) {
  const { t } = useTranslation('staff');
  const snackbar = useSnackbar();
  const remove = useDeleteTask();
  return (
    <ConfirmDialog
      open
      title={t('tasks.delete.title', { name: task.name })}
      confirmLabel={t('tasks.delete.confirm')}
      isDestructive
      isPending={remove.isPending}
      error={remove.isError ? problemMessage(remove.error) : null}
      onConfirm={() =>
        remove.mutate(task.taskId, {
          onSuccess: () => {
            snackbar.show({ type: 'success', title: t('tasks.delete.done', { name: task.name }) });
            onClose();
          },
        })
      }
      onClose={onClose}
    >
      {t('tasks.delete.text', { value: formatRewardQnt(task.value) })}
    </ConfirmDialog>
  );
}

function Tasks({ campaign, onDialog }: { campaign: TCampaignDetail; onDialog: (dialog: Dialog) => void }) {
  const { t } = useTranslation('staff');
  const snackbar = useSnackbar();
  const update = useUpdateTask();
  // Spec: tasks change only while the campaign is a draft (the server refuses with CAMPAIGN_NOT_DRAFT).
  const lockedReason = campaign.status === 'DRAFT' ? null : t('tasks.locked');

  const handleAction = (task: TTask, action: TaskAction) => {
    if (action === 'edit') onDialog({ kind: 'editTask', task });
    else if (action === 'delete') onDialog({ kind: 'deleteTask', task });
    else {
      const status = action === 'publish' ? 'PUBLISHED' : 'DRAFT';
      update.mutate(
        { campaignId: campaign.id, externalId: task.externalId, task: requestOf(task, status) },
        {
          onSuccess: () => snackbar.show({ type: 'success', title: t(`tasks.${action}.done`, { name: task.name }) }),
          onError: (error) =>
            snackbar.show({
              type: 'error',
              title: t(`tasks.${action}.failed`, { name: task.name }),
              description: problemMessage(error),
            }),
        },
      );
    }
  };
  const addButton = (variant: 'contained' | 'outlined') => (
    <Tooltip describeChild title={lockedReason ?? ''}>
      <Button
        variant={variant}
        size="small"
        startIcon={<AddIcon />}
        aria-disabled={lockedReason ? true : undefined}
        onClick={() => {
          if (!lockedReason) onDialog({ kind: 'createTask' });
        }}
        sx={lockedReason ? { opacity: 0.5 } : undefined}
      >
        {t('tasks.create')}
      </Button>
    </Tooltip>
  );

  return (
    <Box component="section" aria-labelledby="tasks-title">
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1.5 }}>
        <Typography id="tasks-title" variant="h2">
          {t('tasks.title', { count: campaign.tasks.length })}
        </Typography>
        {campaign.tasks.length > 0 ? addButton('contained') : null}
      </Stack>
      {campaign.tasks.length === 0 ? (
        <Box sx={{ py: 6, textAlign: 'center', border: 1, borderColor: 'divider', borderRadius: 1 }}>
          <StaffListEmpty
            icon={<ChecklistOutlinedIcon />}
            text={lockedReason ? t('tasks.emptyLocked') : t('tasks.empty')}
            action={lockedReason ? undefined : addButton('outlined')}
          />
        </Box>
      ) : (
        <TaskTable tasks={campaign.tasks} lockedReason={lockedReason} onAction={handleAction} />
      )}
    </Box>
  );
}

/**
 * Task Management (spec §2 Administrator screens 5, Campaign detail; issue 34 §1),
 * management-admin, at /campaign-management/{campaignId}: the campaign with its status, days, QNT
 * value and places, its own actions, and its tasks — create, edit, delete, publish and convert to
 * draft while the campaign is a draft.
 */
export function TaskManagementPage() {
  const { t } = useTranslation('staff');
  const { campaignId = '' } = useParams();
  const campaign = useManagementCampaign(campaignId);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  useCrumbLabel(paths.taskManagement(campaignId), campaign.data?.name);
  const back = (
    <Button component={RouterLink} to={paths.campaignManagement} startIcon={<ArrowBackIcon />} color="inherit">
      {t('tasks.back')}
    </Button>
  );

  if (campaign.isPending) {
    return (
      <Page title={t('tasks.pageTitle')}>
        <Skeleton variant="rounded" height={88} sx={{ mb: 3 }} />
        <TaskTableSkeleton />
      </Page>
    );
  }
  if (campaign.isError) {
    const isMissing = isProblem(campaign.error, 'CAMPAIGN_NOT_FOUND', 'INVALID_REQUEST');
    return (
      <Page title={t('tasks.pageTitle')} actions={back}>
        <Alert
          severity={isMissing ? 'info' : 'error'}
          action={
            isMissing ? undefined : (
              <Button color="inherit" size="small" onClick={() => void campaign.refetch()}>
                {t('list.retry')}
              </Button>
            )
          }
        >
          {isMissing ? t('tasks.notFound') : `${t('tasks.loadError')} ${problemMessage(campaign.error)}`}
        </Alert>
      </Page>
    );
  }
  const data = campaign.data;
  const close = () => setDialog(null);
  return (
    <Page title={data.name} description={t('tasks.description')} actions={back}>
      <CampaignHeader
        campaign={data}
        onAction={(action) => setDialog(action === 'edit' ? { kind: 'editCampaign' } : { kind: action })}
      />
      <Tasks campaign={data} onDialog={setDialog} />
      {dialog?.kind === 'createTask' ? <TaskDialog campaignId={data.id} task={null} onClose={close} /> : null}
      {dialog?.kind === 'editTask' ? <TaskDialog campaignId={data.id} task={dialog.task} onClose={close} /> : null}
      {dialog?.kind === 'deleteTask' ? <DeleteTaskDialog task={dialog.task} onClose={close} /> : null}
      {dialog?.kind === 'editCampaign' ? <CampaignDialog campaign={data} onClose={close} /> : null}
      {dialog?.kind === 'PUBLISHED' || dialog?.kind === 'DRAFT' || dialog?.kind === 'COMPLETED' ? (
        <CampaignConfirmDialog campaign={data} action={dialog.kind} onClose={close} />
      ) : null}
    </Page>
  );
}
