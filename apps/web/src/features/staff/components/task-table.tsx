import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlineOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { TTask } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format.ts';
import { formatRewardQnt } from './reward-format.ts';

export type TaskAction = 'edit' | 'delete' | 'publish' | 'draft';

/** Spec §3 Task: type name, sub type (activity.displayName), name, description, value; then status and actions. */
const COLUMNS = ['typeName', 'displayName', 'name', 'description', 'value', 'status', 'actions'] as const;

function Actions({
  task,
  lockedReason,
  onAction,
}: {
  task: TTask;
  lockedReason: string | null;
  onAction: (task: TTask, action: TaskAction) => void;
}) {
  const { t } = useTranslation('staff');
  const name = task.name;
  const toggle: TaskAction = task.status === 'DRAFT' ? 'publish' : 'draft';
  // Refused while the campaign is not a draft: still focusable (aria-disabled), so the tooltip can
  // say why, and a click does nothing.
  const guarded = (action: TaskAction) => ({
    'aria-disabled': lockedReason ? true : undefined,
    onClick: () => {
      if (!lockedReason) onAction(task, action);
    },
  });
  const muted = lockedReason ? { color: 'action.disabled' } : {};
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', justifyContent: 'flex-end' }}>
      <Tooltip describeChild title={lockedReason ?? t(`tasks.actions.${toggle}Named`, { name })}>
        <Button
          size="small"
          aria-label={t(`tasks.actions.${toggle}Named`, { name })}
          {...guarded(toggle)}
          sx={{ whiteSpace: 'nowrap', ...muted }}
        >
          {t(`tasks.actions.${toggle}`)}
        </Button>
      </Tooltip>
      <Tooltip describeChild title={lockedReason ?? t('tasks.actions.editNamed', { name })}>
        <IconButton size="small" aria-label={t('tasks.actions.editNamed', { name })} {...guarded('edit')} sx={muted}>
          <EditOutlinedIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip describeChild title={lockedReason ?? t('tasks.actions.deleteNamed', { name })}>
        <IconButton
          size="small"
          aria-label={t('tasks.actions.deleteNamed', { name })}
          {...guarded('delete')}
          sx={lockedReason ? muted : { '&:hover': { color: 'error.main' } }}
        >
          <DeleteOutlineIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Stack>
  );
}

/**
 * A campaign's tasks (Task Management): what each asks for (the activity's group and name, with
 * its threshold when it counts), its name and description for customers, the QNT it earns and
 * whether it is published. Changing them is for a draft campaign only: otherwise every action
 * says so in its tooltip (`lockedReason`).
 */
export function TaskTable({
  tasks,
  lockedReason,
  onAction,
}: {
  tasks: TTask[];
  lockedReason: string | null;
  onAction: (task: TTask, action: TaskAction) => void;
}) {
  const { t } = useTranslation('staff');
  return (
    <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
      <Table aria-label={t('tasks.tableLabel')} size="small" stickyHeader sx={{ minWidth: 900 }}>
        <TableHead>
          <TableRow>
            {COLUMNS.map((column) => (
              <TableCell key={column} align={column === 'value' || column === 'actions' ? 'right' : 'left'}>
                {t(`tasks.columns.${column}`)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {tasks.map((task) => (
            <TableRow key={task.taskId} hover>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{task.activity.typeName}</TableCell>
              <TableCell sx={{ minWidth: 160 }}>
                {task.activity.displayName}
                {task.activity.counted ? (
                  <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                    {t('tasks.threshold', { count: task.threshold, value: formatNumber(task.threshold) })}
                  </Typography>
                ) : null}
              </TableCell>
              <TableCell sx={{ minWidth: 140, fontWeight: 600 }}>{task.name}</TableCell>
              <TableCell sx={{ minWidth: 200, color: 'text.secondary' }}>{task.description || '–'}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                {formatRewardQnt(task.value)}
              </TableCell>
              <TableCell>
                <Chip
                  size="small"
                  variant="outlined"
                  color={task.status === 'PUBLISHED' ? 'primary' : 'default'}
                  label={t(`tasks.statuses.${task.status}`)}
                />
              </TableCell>
              <TableCell align="right">
                <Actions task={task} lockedReason={lockedReason} onAction={onAction} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** The loading state: the table's frame with rows shaped like tasks. */
export function TaskTableSkeleton() {
  const { t } = useTranslation('staff');
  return (
    <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }} aria-busy="true">
      <Table aria-label={t('tasks.tableLabel')} size="small" sx={{ minWidth: 900 }}>
        <TableHead>
          <TableRow>
            {COLUMNS.map((column) => (
              <TableCell key={column}>{t(`tasks.columns.${column}`)}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {[0, 1, 2].map((row) => (
            <TableRow key={row}>
              {COLUMNS.map((column) => (
                <TableCell key={column}>
                  <Skeleton height={24} />
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
