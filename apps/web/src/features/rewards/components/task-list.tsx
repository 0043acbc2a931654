import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TTask } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { formatDate, formatNumber } from '../../../lib/format.ts';
import type { TCampaignProgress } from '../api/get-progress.ts';
import { formatRewardQnt } from '../format.ts';

type TTaskProgress = TCampaignProgress['tasks'][number];

/**
 * One task's progress: a bar with the count against the threshold while under way; once done a
 * check, the word and the day (the colour is never the only signal).
 */
function TaskProgress({ task, progress }: { task: TTask; progress: TTaskProgress | undefined }) {
  const { t } = useTranslation('reward');
  if (progress?.done) {
    return (
      <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', color: 'success.main' }}>
        <CheckCircleIcon fontSize="small" aria-hidden />
        <Typography variant="body2">
          <Box component="span" sx={{ fontWeight: 600 }}>
            {t('progress.done')}
          </Box>
          {progress.doneAt ? (
            <Box component="span" sx={{ color: 'text.secondary' }}>
              {` ${t('progress.doneAt', { date: formatDate(progress.doneAt) })}`}
            </Box>
          ) : null}
        </Typography>
      </Stack>
    );
  }
  const count = Math.min(progress?.count ?? 0, task.threshold);
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
      <LinearProgress
        variant="determinate"
        value={(count / task.threshold) * 100}
        aria-label={t('progress.label', {
          task: task.name,
          count: formatNumber(count),
          threshold: formatNumber(task.threshold),
        })}
        sx={{ flex: 1, height: 8, borderRadius: 4 }}
      />
      <Typography variant="body2" color="text.secondary" sx={{ minWidth: 64, textAlign: 'right' }}>
        {t('progress.count', { count: formatNumber(count), threshold: formatNumber(task.threshold) })}
      </Typography>
    </Stack>
  );
}

/**
 * A campaign's tasks: what each asks (the activity, its threshold), what it is worth and, for a
 * campaign the customer takes part in, their progress (`progress`; undefined while it loads).
 */
export function TaskList({
  tasks,
  isOptedIn,
  progress,
}: {
  tasks: TTask[];
  isOptedIn: boolean;
  progress: TTaskProgress[] | undefined;
}) {
  const { t } = useTranslation('reward');
  return (
    <Stack component="ul" spacing={1.5} sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {tasks.map((task) => {
        const taskProgress = progress?.find((entry) => entry.taskId === task.taskId);
        // The activity, unless the task's name already says it, and how many it takes.
        const details = [
          task.activity.displayName === task.name ? null : task.activity.displayName,
          task.threshold > 1 ? t('campaigns.threshold', { count: formatNumber(task.threshold) }) : null,
        ]
          .filter(Boolean)
          .join(' · ');
        return (
          <Box
            component="li"
            key={task.taskId}
            data-testid={`task-${task.taskId}`}
            sx={{ borderTop: 1, borderColor: 'divider', pt: 1.5 }}
          >
            <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between' }}>
              <Box sx={{ minWidth: 0 }}>
                <Typography sx={{ fontWeight: 600 }}>{task.name}</Typography>
                {details ? (
                  <Typography variant="body2" color="text.secondary">
                    {details}
                  </Typography>
                ) : null}
                {task.description ? <Typography variant="body2">{task.description}</Typography> : null}
              </Box>
              <Typography sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                {t('campaigns.taskValue', { amount: formatRewardQnt(task.value) })}
              </Typography>
            </Stack>
            {isOptedIn ? (
              <Box sx={{ mt: 1, minHeight: 24 }}>
                {progress ? (
                  <TaskProgress task={task} progress={taskProgress} />
                ) : (
                  <Skeleton variant="rounded" height={20} aria-hidden />
                )}
              </Box>
            ) : null}
          </Box>
        );
      })}
    </Stack>
  );
}
