import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TSubscription } from '@connect/shared';
import { formatNumber } from '../../../../lib/format.ts';
import { USAGE_ITEMS, isUnlimited, overAllowances, type UsageItem } from './plan-model.ts';

/** One allowance: its name, "used of total" and a bar (amber when reached, red when above). */
function UsageBar({ item, used, total }: { item: UsageItem; used: number; total: number }) {
  const { t } = useTranslation('account');
  const name = t(`myAccount.plan.usage.${item}`);
  const isAll = isUnlimited(item, total);
  const text = isAll
    ? t('myAccount.plan.usage.unlimited', { used: formatNumber(used) })
    : total === 0 && used === 0
      ? t('myAccount.plan.usage.notIncluded')
      : t('myAccount.plan.usage.of', { used: formatNumber(used), total: formatNumber(total) });
  const isOver = !isAll && used > total;
  const isReached = !isAll && !isOver && used >= total && total > 0;
  const percent = isAll ? 0 : total === 0 ? (used > 0 ? 100 : 0) : Math.min(100, Math.round((used / total) * 100));
  const labelId = `usage-${item}`;
  return (
    <Box>
      <Stack direction="row" sx={{ justifyContent: 'space-between', gap: 2, mb: 0.5 }}>
        <Typography id={labelId} variant="body2">
          {name}
        </Typography>
        <Typography
          variant="body2"
          sx={{ fontVariantNumeric: 'tabular-nums', color: isOver ? 'error.main' : 'text.secondary' }}
          data-testid={`usage-${item}`}
        >
          {text}
          {isReached ? ` · ${t('myAccount.plan.usage.reached')}` : null}
        </Typography>
      </Stack>
      <LinearProgress
        variant="determinate"
        value={percent}
        color={isOver ? 'error' : isReached ? 'warning' : 'primary'}
        aria-labelledby={labelId}
        aria-valuetext={text}
        // A grey track: the theme's tinted one reads as a full bar at 0 %.
        sx={{ height: 6, borderRadius: 3, bgcolor: 'action.hover' }}
      />
    </Box>
  );
}

/** Usage against the plan's allowances, the gateway's rate limit, and what happens above an allowance. */
export function UsageList({ subscription }: { subscription: TSubscription }) {
  const { t } = useTranslation('account');
  const { usage, allowances } = subscription;
  const over = overAllowances(usage, allowances);
  return (
    <Box component="section" aria-labelledby="plan-usage-title">
      <Typography id="plan-usage-title" variant="h4" component="h3" sx={{ mb: 1.5 }}>
        {t('myAccount.plan.usage.title')}
      </Typography>
      {over.length > 0 ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          <AlertTitle>{t('myAccount.plan.usage.overTitle')}</AlertTitle>
          {over.map((item) => (
            <Box key={item}>
              {t('myAccount.plan.usage.over', {
                used: formatNumber(usage[item]),
                total: formatNumber(allowances[item]),
                name: t(`myAccount.plan.usage.${item}`).toLowerCase(),
              })}
            </Box>
          ))}
        </Alert>
      ) : null}
      {!subscription.inService ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('myAccount.plan.usage.notInService')}
        </Alert>
      ) : null}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 4, rowGap: 2 }}>
        {USAGE_ITEMS.map((item) => (
          <UsageBar key={item} item={item} used={usage[item]} total={allowances[item]} />
        ))}
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
        {t('myAccount.plan.usage.rateLimit')}:{' '}
        {t('myAccount.plan.usage.rateLimitValue', {
          count: allowances.rateLimit,
          formatted: formatNumber(allowances.rateLimit),
        })}
      </Typography>
    </Box>
  );
}
