import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import { ZTaskRequest, type TActivity, type TActivityType, type TTask } from '@connect/shared';
import { useMemo, useState } from 'react';
import { useForm, useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { useRewardActivities } from '../api/get-reward-activities.ts';
import { useCreateTask } from '../api/create-task.ts';
import { useUpdateTask } from '../api/update-task.ts';
import { FormDialogFrame } from './form-dialog-frame.tsx';
import { applyFieldErrors } from './invite-user-dialog.tsx';

const ZTaskFields = z.object({
  activityType: z.string(),
  threshold: z.string(),
  name: z.string(),
  description: z.string(),
  value: z.string(),
});
type TaskForm = z.input<typeof ZTaskFields>;

/**
 * The form as typed, read through the request's own schema (ZTaskRequest, which the server
 * validates with). The threshold counts only for an activity that is `counted`; a blank or
 * unreadable one reads as 0, which the schema refuses in its words ('At least 1.'). One-off
 * activities send 1.
 */
const ZTaskBody = ZTaskRequest.omit({ status: true });

function taskFormSchema(counted: ReadonlySet<string>) {
  return ZTaskFields.transform((form): z.input<typeof ZTaskBody> => {
    const threshold = Number(form.threshold.trim() || '0');
    return {
      name: form.name,
      description: form.description,
      value: form.value,
      // Typed as the request's, checked by it next: no activity chosen ('') is refused there.
      activityType: (form.activityType || undefined) as TActivityType,
      threshold: counted.has(form.activityType) ? (Number.isFinite(threshold) ? threshold : 0) : 1,
    };
  }).pipe(ZTaskBody);
}
type TaskValues = z.output<ReturnType<typeof taskFormSchema>>;

const FIELDS = ['activityType', 'threshold', 'name', 'description', 'value'] as const;

function formValuesOf(task: TTask | null): TaskForm {
  if (!task) return { activityType: '', threshold: '1', name: '', description: '', value: '' };
  return {
    activityType: task.activity.type,
    threshold: String(task.threshold),
    name: task.name,
    description: task.description,
    value: task.value,
  };
}

/**
 * Create or edit a task of a draft campaign (Task Management): the activity it asks for (GET
 * /management/activities), how many of it when the activity counts (e.g. 100 gateway calls), the
 * name and description customers see, and the QNT it earns. A new task is a draft; an edited one
 * keeps its status (publishing is the table's action).
 */
export function TaskDialog({
  campaignId,
  task,
  onClose,
}: {
  campaignId: string;
  task: TTask | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('staff');
  const snackbar = useSnackbar();
  const activities = useRewardActivities();
  const create = useCreateTask();
  const update = useUpdateTask();
  const [failure, setFailure] = useState<string | null>(null);
  // Until the catalogue arrives, an edited task's own activity is the select's one option.
  const list = activities.data;
  const options: TActivity[] = useMemo(() => list ?? (task ? [task.activity] : []), [list, task]);
  const counted = useMemo(
    () => new Set(options.filter((activity) => activity.counted).map((activity) => activity.type)),
    [options],
  );
  const schema = useMemo(() => taskFormSchema(counted), [counted]);
  const form = useForm<TaskForm, unknown, TaskValues>({
    resolver: zodResolver(schema),
    defaultValues: formValuesOf(task),
    mode: 'onTouched',
  });
  // The fields edit the typed text; only the submitted values are the request's.
  const control = form.control as unknown as Control<TaskForm>;
  const activityType = useWatch({ control, name: 'activityType' });
  const activity = options.find((item) => item.type === activityType);
  const isEdit = task !== null;
  const isSending = form.formState.isSubmitting || create.isPending || update.isPending;

  const handleSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      if (task) {
        await update.mutateAsync({
          campaignId,
          externalId: task.externalId,
          task: { ...values, status: task.status },
        });
      } else {
        await create.mutateAsync({ campaignId, task: { ...values, status: 'DRAFT' } });
      }
      snackbar.show({
        type: 'success',
        title: t(isEdit ? 'tasks.form.updated' : 'tasks.form.created', { name: values.name }),
      });
      onClose();
    } catch (error) {
      applyFieldErrors(error, FIELDS, form.setError);
      setFailure(problemMessage(error));
    }
  });

  return (
    <FormDialogFrame
      title={task ? t('tasks.form.editTitle', { name: task.name }) : t('tasks.form.createTitle')}
      isSending={isSending}
      onSubmit={handleSubmit}
      onClose={onClose}
      failureTitle={t(isEdit ? 'tasks.form.updateFailed' : 'tasks.form.createFailed')}
      failure={failure}
      cancelLabel={t('tasks.form.cancel')}
      submitLabel={isEdit ? t('tasks.form.submitEdit') : t('tasks.form.submitCreate')}
    >
      {activities.isError ? (
        <Alert severity="error">
          {t('tasks.form.activitiesFailed')} {problemMessage(activities.error)}
        </Alert>
      ) : null}
      <FormTextField
        control={control}
        name="activityType"
        label={t('tasks.form.activity')}
        select
        required
        autoFocus
        helperText={activities.isPending ? t('tasks.form.activitiesLoading') : t('tasks.form.activityHint')}
      >
        {options.map((item) => (
          <MenuItem key={item.type} value={item.type}>
            {t('tasks.form.activityOption', { group: item.typeName, name: item.displayName })}
          </MenuItem>
        ))}
      </FormTextField>
      {activity?.counted ? (
        <FormTextField
          control={control}
          name="threshold"
          label={t('tasks.form.threshold')}
          helperText={t('tasks.form.thresholdHint', { activity: activity.displayName.toLowerCase() })}
          required
          slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
          sx={{ maxWidth: 260 }}
        />
      ) : null}
      <FormTextField
        control={control}
        name="name"
        label={t('tasks.form.name')}
        helperText={t('tasks.form.nameHint')}
        required
        slotProps={{ htmlInput: { autoComplete: 'off', maxLength: 100 } }}
      />
      <FormTextField
        control={control}
        name="description"
        label={t('tasks.form.description')}
        multiline
        minRows={2}
        slotProps={{ htmlInput: { maxLength: 500 } }}
      />
      <FormTextField
        control={control}
        name="value"
        label={t('tasks.form.value')}
        helperText={t('tasks.form.valueHint')}
        required
        slotProps={{
          htmlInput: { inputMode: 'decimal', autoComplete: 'off' },
          input: { endAdornment: <InputAdornment position="end">QNT</InputAdornment> },
        }}
        sx={{ maxWidth: 260 }}
      />
    </FormDialogFrame>
  );
}
