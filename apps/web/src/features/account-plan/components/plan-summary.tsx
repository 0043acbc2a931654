import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatNumber } from '../../../lib/format.ts';
import { formatGbp, formatUsd, formatUsdPerCredit } from '../../../lib/plans/money.ts';
import { isFree, PAYG_CREDIT_CAP, type Summary } from '../checkout.ts';

function Row({ label, children, isStrong = false }: { label: string; children: ReactNode; isStrong?: boolean }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: '220px 1fr' },
        gap: { xs: 0.25, sm: 2 },
        py: 1,
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      <Typography component="dt" color="text.secondary" sx={isStrong ? { fontWeight: 700, color: 'text.primary' } : {}}>
        {label}
      </Typography>
      <Typography
        component="dd"
        sx={{ m: 0, fontVariantNumeric: 'tabular-nums', ...(isStrong ? { fontWeight: 700 } : {}) }}
      >
        {children}
      </Typography>
    </Box>
  );
}

/**
 * Every figure of the order before it is placed (spec §2 "Plan summary labels"), each choice with
 * an edit link back to the plan step (shared/UI.md). The fee is in pounds, a bundle in dollars.
 */
export function PlanSummary({ summary, onEdit }: { summary: Summary; onEdit: () => void }) {
  const { t } = useTranslation('accountPlan');
  const plan = formatGbp(summary.planGbpMinor);
  const bundle = summary.bundleCredits !== null ? formatUsd(summary.bundleUsdCents) : null;
  const both = bundle ? t('summary.plus', { first: plan, second: bundle }) : plan;
  const isPayAsYouGo = summary.type === 'PAY_AS_YOU_GO';

  return (
    <Stack spacing={3}>
      <Box>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
            {summary.planName}
          </Typography>
          <Button size="small" onClick={onEdit} aria-label={`${t('actions.edit')} ${t('steps.plan')}`}>
            {t('actions.edit')}
          </Button>
        </Stack>
        <Box component="dl" sx={{ m: 0 }}>
          <Row label={t('summary.subscriptionType')}>{summary.subscriptionType}</Row>
          <Row label={t('summary.planName')}>{summary.planName}</Row>
          <Row label={t('summary.startDate')}>{formatDate(summary.startDate)}</Row>
          <Row label={t('summary.renewalDate')}>{formatDate(summary.renewalDate)}</Row>
          <Row label={t('summary.renewalCost')}>
            {isPayAsYouGo
              ? t('summary.perMonthCredits')
              : t('summary.perYear', { amount: formatGbp(summary.renewalGbpMinor) })}
          </Row>
          <Row label={t('summary.upfrontCost')}>
            {summary.upfrontMonths !== null
              ? t('summary.upfrontMonths', { amount: both, duration: summary.upfrontMonths })
              : both}
          </Row>
          <Row label={t('summary.mainnets')}>{formatNumber(summary.mainnets)}</Row>
          <Row label={t('summary.testnets')}>{formatNumber(summary.testnets)}</Row>
          {summary.bundleCredits !== null ? (
            <Row label={t('summary.creditBundle')}>
              {t('summary.credits', { credits: formatNumber(summary.bundleCredits) })}
            </Row>
          ) : (
            <Row label={t('summary.creditAllowance')}>
              {isPayAsYouGo ? t('summary.payAsYouGoCredits') : t('summary.noBundle')}
            </Row>
          )}
          <Row label={t('summary.creditUnitPrice')}>
            {summary.creditUnitUsdCents !== null ? formatUsdPerCredit(summary.creditUnitUsdCents) : t('summary.none')}
          </Row>
          <Row label={t('summary.paymentMethods')}>
            {summary.paymentMethods.length > 0
              ? summary.paymentMethods.map((method) => t(`methods.${method}`)).join(', ')
              : t('summary.noPaymentMethod')}
          </Row>
        </Box>
      </Box>
      <Box component="dl" sx={{ m: 0 }}>
        <Row label={t('summary.planCost')}>{plan}</Row>
        <Row label={t('summary.bundleCost')}>{bundle ?? t('summary.none')}</Row>
        <Row label={t('summary.subtotal')}>{both}</Row>
        <Row label={t('summary.totalCost')} isStrong>
          {both}
        </Row>
      </Box>
      <Stack spacing={0.5}>
        <Typography variant="body2" color="text.secondary">
          {t(isFree(summary) ? 'summary.startNow' : 'summary.startNote')}
        </Typography>
        {isPayAsYouGo ? (
          <Typography variant="body2" color="text.secondary">
            {t('summary.payAsYouGoHelp', {
              qnt: formatUsdPerCredit(PAYG_CREDIT_CAP.qntUsdCents),
              withVat: formatUsdPerCredit(PAYG_CREDIT_CAP.withVatUsdCents),
            })}
          </Typography>
        ) : null}
        {bundle ? (
          <Typography variant="body2" color="text.secondary">
            {t('summary.conversion')}
          </Typography>
        ) : null}
      </Stack>
    </Stack>
  );
}
