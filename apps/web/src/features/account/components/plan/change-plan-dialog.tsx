import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TSubscription } from '@connect/shared';
import { QueryState } from '../../../../components/query-state.tsx';
import { useSnackbar } from '../../../../components/snackbar/snackbar-context.ts';
import { formatDate, formatNumber } from '../../../../lib/format.ts';
import { problemMessage } from '../../../../lib/problems.ts';
import { useDowngradePlan, useRatePlans } from '../../api/plan.ts';
import { planRank } from '../../../../lib/plans/rank.ts';
import { overAllowances } from './plan-model.ts';

const KEEP = 'keep';

/**
 * The plan for the next period (POST /subscription/downgrade): a lower plan on sale, applied at
 * the renewal, or keep the current one. Each lower plan says where today's usage is above its
 * allowances, and what that means (the account keeps everything, but cannot add more).
 */
export function ChangePlanDialog({ subscription, onClose }: { subscription: TSubscription; onClose: () => void }) {
  const { t } = useTranslation('account');
  const snackbar = useSnackbar();
  const titleId = useId();
  const plans = useRatePlans();
  const downgrade = useDowngradePlan();
  const [choice, setChoice] = useState(subscription.nextPlan?.id ?? KEEP);
  const date = formatDate(subscription.periodEnd);

  const handleSave = () =>
    downgrade.mutate(choice === KEEP ? null : choice, {
      onSuccess: (updated) => {
        snackbar.show({
          type: 'success',
          title: t('myAccount.plan.change.saved', {
            date,
            plan: updated.nextPlan?.name ?? updated.plan.name,
          }),
        });
        onClose();
      },
    });

  return (
    <Dialog open onClose={downgrade.isPending ? undefined : onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{t('myAccount.plan.change.title')}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('myAccount.plan.change.intro', { date })}
        </Typography>
        <QueryState
          query={plans}
          loading={<Skeleton variant="rounded" height={120} aria-busy="true" />}
          errorMessage={t('myAccount.plan.change.plansFailed')}
          errorVariant="row"
        >
          {(catalogue) => {
            const lower = catalogue
              .filter((plan) => planRank(plan) < planRank(subscription.plan))
              .sort((a, b) => planRank(b) - planRank(a));
            return (
              <>
                <RadioGroup
                  aria-labelledby={titleId}
                  value={choice}
                  onChange={(event) => setChoice(event.target.value)}
                >
                  <FormControlLabel
                    value={KEEP}
                    control={<Radio />}
                    label={t('myAccount.plan.change.keep', { plan: subscription.plan.name })}
                  />
                  {lower.map((plan) => {
                    const over = overAllowances(subscription.usage, plan.allowances);
                    return (
                      <Box key={plan.id} sx={{ mb: 1 }}>
                        <FormControlLabel
                          value={plan.id}
                          control={
                            <Radio
                              slotProps={{ input: { 'aria-describedby': over.length ? `${plan.id}-over` : undefined } }}
                            />
                          }
                          label={
                            <>
                              {plan.name}{' '}
                              <Typography component="span" variant="body2" color="text.secondary">
                                ({t(`myAccount.plan.change.optionBilling.${plan.billing}`)})
                              </Typography>
                            </>
                          }
                        />
                        {over.length > 0 ? (
                          <Typography
                            id={`${plan.id}-over`}
                            variant="body2"
                            color="warning.dark"
                            sx={{ ml: 4, mt: -0.5 }}
                          >
                            {t('myAccount.plan.change.overWarning', {
                              items: over
                                .map(
                                  (item) =>
                                    `${t('myAccount.plan.usage.of', {
                                      used: formatNumber(subscription.usage[item]),
                                      total: formatNumber(plan.allowances[item]),
                                    })} ${t(`myAccount.plan.usage.${item}`).toLowerCase()}`,
                                )
                                .join(', '),
                            })}
                          </Typography>
                        ) : null}
                      </Box>
                    );
                  })}
                </RadioGroup>
                {lower.length === 0 ? (
                  <Typography variant="body2" color="text.secondary">
                    {t('myAccount.plan.change.none')}
                  </Typography>
                ) : null}
              </>
            );
          }}
        </QueryState>
        {downgrade.isError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {problemMessage(downgrade.error)}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} color="inherit" disabled={downgrade.isPending}>
          {t('actions.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={handleSave}
          loading={downgrade.isPending}
          disabled={choice === (subscription.nextPlan?.id ?? KEEP)}
        >
          {t('myAccount.plan.change.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
