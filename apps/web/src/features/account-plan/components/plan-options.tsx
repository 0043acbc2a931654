import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Skeleton from '@mui/material/Skeleton';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TRatePlan } from '@connect/shared';
import { QueryState } from '../../../components/query-state.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { creditBundlesQuery } from '../../../lib/plans/api.ts';
import { formatUsd, formatUsdPerCredit } from '../../../lib/plans/money.ts';
import type { CreditBundle } from '../checkout.ts';

const NONE = 'none';

/**
 * The chosen plan's options: the upfront period ('first {duration} months upfront') when the plan
 * has one, and its credit bundles when it sells them — none or one (spec §2).
 */
export function PlanOptions({
  plan,
  isUpfront,
  bundle,
  onUpfrontChange,
  onBundleChange,
}: {
  plan: TRatePlan;
  isUpfront: boolean;
  bundle: CreditBundle | null;
  onUpfrontChange: (isUpfront: boolean) => void;
  onBundleChange: (bundle: CreditBundle | null) => void;
}) {
  const { t } = useTranslation('accountPlan');
  if (plan.upfrontMonths === null && !plan.hasCreditBundles) return null;
  return (
    <Box sx={{ mt: 3, display: 'grid', gap: 2 }}>
      {plan.upfrontMonths !== null ? (
        <FormControlLabel
          control={<Checkbox checked={isUpfront} onChange={(event) => onUpfrontChange(event.target.checked)} />}
          label={t('plans.upfront', { duration: plan.upfrontMonths })}
        />
      ) : null}
      {plan.hasCreditBundles ? <CreditBundles plan={plan} bundle={bundle} onChange={onBundleChange} /> : null}
    </Box>
  );
}

function CreditBundles({
  plan,
  bundle,
  onChange,
}: {
  plan: TRatePlan;
  bundle: CreditBundle | null;
  onChange: (bundle: CreditBundle | null) => void;
}) {
  const { t } = useTranslation('accountPlan');
  const bundles = useQuery(creditBundlesQuery(plan.id));
  return (
    <FormControl component="fieldset">
      <FormLabel component="legend" sx={{ fontWeight: 600, color: 'text.primary' }}>
        {t('plans.bundles.legend', { plan: plan.name })}
      </FormLabel>
      <FormHelperText sx={{ mx: 0 }}>{t('plans.bundles.hint')}</FormHelperText>
      <QueryState
        query={bundles}
        errorVariant="row"
        loading={
          <Box aria-busy="true" aria-label={t('plans.bundles.loading')}>
            <Skeleton variant="text" width={320} />
            <Skeleton variant="text" width={320} />
          </Box>
        }
      >
        {(data) =>
          data.bundles.length === 0 ? (
            <Alert severity="info" sx={{ mt: 1 }}>
              {t('plans.bundles.empty')}
            </Alert>
          ) : (
            <RadioGroup
              value={bundle?.id ?? NONE}
              onChange={(event) => onChange(data.bundles.find((b) => b.id === event.target.value) ?? null)}
            >
              <FormControlLabel value={NONE} control={<Radio />} label={t('plans.bundles.none')} />
              {data.bundles.map((option) => (
                <FormControlLabel
                  key={option.id}
                  value={option.id}
                  control={<Radio />}
                  label={t('plans.bundles.option', {
                    credits: formatNumber(option.credits),
                    price: formatUsd(option.priceUsdCents),
                    unit: formatUsdPerCredit(option.unitPriceUsdCents),
                  })}
                />
              ))}
            </RadioGroup>
          )
        }
      </QueryState>
    </FormControl>
  );
}
