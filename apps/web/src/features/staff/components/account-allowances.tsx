import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { MAX_INT32, PLAN_ALLOWANCES, ZInt32Amount, type PlanAllowance, type TAccountOverride } from '@connect/shared';
import type { TFunction } from 'i18next';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { QueryState } from '../../../components/query-state.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { useClearAccountOverride } from '../api/clear-account-override.ts';
import { useAccountOverrides } from '../api/get-account-overrides.ts';
import { useSetAccountOverride } from '../api/set-account-override.ts';
import { applyFieldErrors } from './invite-user-dialog.tsx';

/**
 * The amount as typed, then read as a number and checked by the request's own rule (ZInt32Amount:
 * a whole number from 0 to the column's maximum). Text, not `type="number"`: a number input hands
 * "1e3" or "-0" over as a number and "12abc" as nothing, so the person would not see why.
 */
function amountSchema(t: TFunction<'staff'>) {
  return z.object({
    amount: z
      .string()
      .trim()
      .regex(/^\d+$/, { error: t('accounts.allowances.errors.wholeNumber') })
      .transform(Number)
      .refine((amount) => ZInt32Amount.safeParse(amount).success, {
        error: t('accounts.allowances.errors.tooLarge', { max: formatNumber(MAX_INT32) }),
      }),
  });
}
type AmountForm = z.input<ReturnType<typeof amountSchema>>;
type AmountValues = z.output<ReturnType<typeof amountSchema>>;

const FIELDS = ['amount'] as const;

/**
 * The plan allowances of one account (issue 33 §1): each in force (the override's number, else the
 * plan's), marked when overridden, with an inline form to override it (PUT `{ amount }`) or, when
 * overridden, to give it back to the plan (DELETE). One form open at a time.
 */
export function AccountAllowances({ accountId, accountLabel }: { accountId: string; accountLabel: string }) {
  const { t } = useTranslation('staff');
  const overrides = useAccountOverrides(accountId);
  const [editing, setEditing] = useState<PlanAllowance | null>(null);
  return (
    <QueryState
      query={overrides}
      errorVariant="row"
      loading={
        <Box aria-label={t('accounts.details.allowancesLoading')} role="status">
          {PLAN_ALLOWANCES.map((key) => (
            <Skeleton key={key} height={32} />
          ))}
        </Box>
      }
    >
      {({ allowances, overrides: list }) =>
        allowances === null ? (
          <Typography color="text.secondary">{t('accounts.allowances.noPlan')}</Typography>
        ) : (
          <Box component="dl" sx={{ m: 0 }}>
            {PLAN_ALLOWANCES.map((key) => (
              <AllowanceRow
                key={key}
                accountId={accountId}
                accountLabel={accountLabel}
                allowance={key}
                value={allowances[key]}
                override={list.find((override) => override.key === key)}
                isEditing={editing === key}
                onEdit={() => setEditing(key)}
                onDone={() => setEditing(null)}
              />
            ))}
          </Box>
        )
      }
    </QueryState>
  );
}

function AllowanceRow({
  accountId,
  accountLabel,
  allowance,
  value,
  override,
  isEditing,
  onEdit,
  onDone,
}: {
  accountId: string;
  accountLabel: string;
  allowance: PlanAllowance;
  value: number;
  override: TAccountOverride | undefined;
  isEditing: boolean;
  onEdit: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('staff');
  const name = t(`accounts.allowances.names.${allowance}`);
  const editRef = useRef<HTMLButtonElement>(null);
  // Focus goes back to Edit when this form closes itself, not when another row's Edit closed it.
  const refocus = useRef(false);
  useEffect(() => {
    if (!isEditing && refocus.current) {
      refocus.current = false;
      editRef.current?.focus();
    }
  }, [isEditing]);
  const handleDone = () => {
    refocus.current = true;
    onDone();
  };

  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: '1fr auto',
        alignItems: 'center',
        columnGap: 2,
        py: 0.75,
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      <Typography component="dt" variant="body2">
        {name}
      </Typography>
      <Stack component="dd" direction="row" sx={{ m: 0, alignItems: 'center', gap: 1 }}>
        {override ? (
          <Chip size="small" color="primary" variant="outlined" label={t('accounts.overrides.overridden')} />
        ) : null}
        <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums', minWidth: 32, textAlign: 'right' }}>
          {formatNumber(value)}
        </Typography>
        <Button
          ref={editRef}
          size="small"
          onClick={onEdit}
          aria-label={t('accounts.allowances.editLabel', { name })}
          // Hidden, not removed, while the form is open: the numbers stay in one column.
          sx={isEditing ? { visibility: 'hidden' } : undefined}
        >
          {t('accounts.allowances.edit')}
        </Button>
      </Stack>
      {isEditing ? (
        <Box component="dd" sx={{ m: 0, mt: 1, gridColumn: '1 / -1' }}>
          <AllowanceForm
            accountId={accountId}
            accountLabel={accountLabel}
            allowance={allowance}
            name={name}
            value={value}
            isOverridden={Boolean(override)}
            onDone={handleDone}
          />
        </Box>
      ) : null}
    </Box>
  );
}

function AllowanceForm({
  accountId,
  accountLabel,
  allowance,
  name,
  value,
  isOverridden,
  onDone,
}: {
  accountId: string;
  accountLabel: string;
  allowance: PlanAllowance;
  name: string;
  value: number;
  isOverridden: boolean;
  onDone: () => void;
}) {
  const { t } = useTranslation('staff');
  const snackbar = useSnackbar();
  const set = useSetAccountOverride();
  const clear = useClearAccountOverride();
  const [failure, setFailure] = useState<string | null>(null);
  const schema = useMemo(() => amountSchema(t), [t]);
  const form = useForm<AmountForm, unknown, AmountValues>({
    resolver: zodResolver(schema),
    defaultValues: { amount: String(value) },
    mode: 'onTouched',
  });
  const isSending = form.formState.isSubmitting || set.isPending || clear.isPending;

  const handleSubmit = form.handleSubmit(async ({ amount }) => {
    setFailure(null);
    try {
      await set.mutateAsync({ accountId, key: allowance, value: { amount } });
      snackbar.show({
        title: t('accounts.allowances.set', { name, amount: formatNumber(amount) }),
        description: t('accounts.allowances.setDescription', { account: accountLabel }),
      });
      onDone();
    } catch (error) {
      if (!applyFieldErrors(error, FIELDS, form.setError)) setFailure(problemMessage(error));
    }
  });
  const handleUsePlan = async () => {
    setFailure(null);
    try {
      await clear.mutateAsync({ accountId, key: allowance });
      snackbar.show({
        title: t('accounts.overrides.cleared'),
        description: t('accounts.overrides.clearedDescription', { name, account: accountLabel }),
      });
      onDone();
    } catch (error) {
      setFailure(problemMessage(error));
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(event)}
      // Escape cancels this form; without this the panel (a dialog) would close around it.
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        if (!isSending) onDone();
      }}
    >
      <fieldset disabled={isSending} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
        <FormTextField
          // The field edits the typed text; only the submitted value is a number.
          control={form.control as unknown as Control<AmountForm>}
          name="amount"
          label={name}
          size="small"
          autoFocus
          required
          helperText={t('accounts.allowances.hint')}
          slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
        />
        {failure ? (
          <Typography role="alert" variant="body2" color="error" sx={{ mt: 1 }}>
            {failure}
          </Typography>
        ) : null}
        <Stack direction="row" sx={{ mt: 1, gap: 1, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
          {isOverridden ? (
            <Button size="small" color="inherit" onClick={() => void handleUsePlan()} sx={{ mr: 'auto' }}>
              {t('accounts.allowances.usePlan')}
            </Button>
          ) : null}
          <Button size="small" color="inherit" onClick={onDone}>
            {t('accounts.allowances.cancel')}
          </Button>
          <SubmitButton size="small" loading={set.isPending}>
            {t('accounts.allowances.save')}
          </SubmitButton>
        </Stack>
      </fieldset>
    </form>
  );
}
