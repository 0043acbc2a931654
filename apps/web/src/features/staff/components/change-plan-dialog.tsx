import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import {
  ZStaffPlanChangeRequest,
  type TManagementAccountDetail,
  type TStaffPlanAction,
  type TStaffPlanChangeRequest,
} from '@connect/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { fetchPlansQuery } from '../../../lib/plans/api.ts';
import { planRank } from '../../../lib/plans/rank.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { useChangePlan } from '../api/change-plan.ts';
import { FailureAlert } from './form-dialog-frame.tsx';

type Plan = NonNullable<TManagementAccountDetail['plan']>;
const KEEP_PLAN = 'keep';

/**
 * The changes the plan's state allows (the server's transitions decide; this only offers them):
 * a disabled plan can be enabled; only a plan in good standing (active, not waiting for a payment)
 * can be disabled; a paid plan that renews can be cancelled or kept, or moved down. A plan that
 * waits for a payment or has ended offers nothing: the customer's order or payment moves it.
 */
export function planActionsOf(plan: Plan): TStaffPlanAction[] {
  if (plan.status === 'DISABLED') return ['ENABLE'];
  const inGoodStanding = plan.status === 'ACTIVE' && (plan.statusReason === null || plan.statusReason === 'TRIAL');
  if (!inGoodStanding) return [];
  const renews = plan.type !== 'TRIAL' && plan.periodEnd !== null;
  return renews ? [plan.cancelAtPeriodEnd ? 'KEEP' : 'CANCEL', 'DOWNGRADE', 'DISABLE'] : ['DISABLE'];
}

/**
 * Change an account's plan without money (issue 33 §1; sales): disable or enable it, cancel it at
 * the period's end or keep it, or choose a lower plan for the next period — each through the
 * plan's own transitions, with a reason for the audit log. An upgrade is an order the customer
 * pays, so it is not here.
 */
export function ChangePlanDialog({
  accountId,
  accountLabel,
  plan,
  onClose,
}: {
  accountId: string;
  accountLabel: string;
  plan: Plan;
  onClose: () => void;
}) {
  const { t } = useTranslation('staff');
  const titleId = useId();
  const snackbar = useSnackbar();
  const change = useChangePlan();
  const actions = planActionsOf(plan);
  const [action, setAction] = useState<TStaffPlanAction>(actions[0]!);
  const [target, setTarget] = useState<string>(KEEP_PLAN);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const catalogue = useQuery({ ...fetchPlansQuery(), enabled: actions.includes('DOWNGRADE') });
  const current = catalogue.data?.groups.flatMap((group) => group.tiers).find((tier) => tier.name === plan.name);
  const lower = (catalogue.data?.groups.flatMap((group) => group.tiers) ?? [])
    .filter((tier) => current && planRank(tier) < planRank(current))
    .sort((a, b) => planRank(b) - planRank(a));

  const submit = async () => {
    setFailure(null);
    const request: TStaffPlanChangeRequest =
      action === 'DOWNGRADE'
        ? { action, ratePlanId: target === KEEP_PLAN ? null : target, reason }
        : { action, reason };
    const parsed = ZStaffPlanChangeRequest.safeParse(request);
    if (!parsed.success) {
      setReasonError(parsed.error.issues.find((issue) => issue.path[0] === 'reason')?.message ?? null);
      return;
    }
    setReasonError(null);
    try {
      const answer = await change.mutateAsync({ accountId, request: parsed.data });
      snackbar.show({
        title: t(`accounts.planChange.done.${action}`, { account: accountLabel }),
        description: t('accounts.planChange.doneDescription', {
          status: t(`accounts.planChange.statuses.${answer.planStatus}`),
        }),
      });
      onClose();
    } catch (error) {
      setFailure(problemMessage(error));
    }
  };
  const handleClose = () => {
    if (!change.isPending) onClose();
  };

  return (
    <Dialog open onClose={handleClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <DialogTitle id={titleId}>{t('accounts.planChange.title', { account: accountLabel })}</DialogTitle>
        <DialogContent>
          <fieldset disabled={change.isPending} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
            <Stack spacing={2} sx={{ pt: 1 }}>
              <RadioGroup
                aria-label={t('accounts.planChange.action')}
                value={action}
                onChange={(event) => setAction(event.target.value as TStaffPlanAction)}
              >
                {actions.map((option) => (
                  <FormControlLabel
                    key={option}
                    value={option}
                    control={<Radio />}
                    label={t(`accounts.planChange.actions.${option}`, { plan: plan.name })}
                  />
                ))}
              </RadioGroup>
              {action === 'DOWNGRADE' ? (
                <TextField
                  select
                  label={t('accounts.planChange.nextPlan')}
                  value={target}
                  onChange={(event) => setTarget(event.target.value)}
                  helperText={
                    catalogue.isError ? t('accounts.planChange.plansFailed') : t('accounts.planChange.nextPlanHint')
                  }
                  error={catalogue.isError}
                >
                  <MenuItem value={KEEP_PLAN}>{t('accounts.planChange.keepPlan', { plan: plan.name })}</MenuItem>
                  {lower.map((tier) => (
                    <MenuItem key={tier.id} value={tier.id}>
                      {tier.name}
                    </MenuItem>
                  ))}
                </TextField>
              ) : null}
              <TextField
                label={t('accounts.planChange.reason')}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                required
                multiline
                minRows={2}
                error={reasonError !== null}
                helperText={reasonError ?? t('accounts.planChange.reasonHint')}
              />
              <FailureAlert title={t('accounts.planChange.failed')} failure={failure} />
            </Stack>
          </fieldset>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button color="inherit" onClick={handleClose} disabled={change.isPending}>
            {t('accounts.money.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={change.isPending}>
            {t('accounts.planChange.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
