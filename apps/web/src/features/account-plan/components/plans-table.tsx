import CheckIcon from '@mui/icons-material/Check';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TFetchPlansResponse, TPlanAllowances, TRatePlan, TSubscription } from '@connect/shared';
import { visuallyHidden } from '../../../components/visually-hidden.ts';
import { formatNumber } from '../../../lib/format.ts';
import { formatGbp, formatUsdPerCredit } from '../../../lib/plans/money.ts';
import { offerOf } from '../../../lib/plans/rank.ts';

type Group = TFetchPlansResponse['groups'][number];

const ALLOWANCE_ROWS = [
  'applications',
  'tokens',
  'bridges',
  'blockchains',
  'mainnets',
  'testnets',
  'rateLimit',
] as const;

/** A tier's price: the annual fee in pounds, or pay as you go's price per credit in dollars. */
export function PlanPrice({ plan }: { plan: TRatePlan }) {
  const { t } = useTranslation('accountPlan');
  const fee = plan.feeGbpMinor > 0 ? formatGbp(plan.feeGbpMinor) : null;
  return (
    <Stack spacing={0.25}>
      <Typography sx={{ fontWeight: 600 }}>
        {fee
          ? t(plan.billing === 'ANNUAL' ? 'plans.price.perYear' : 'plans.price.perMonth', { amount: fee })
          : t('plans.price.noFee')}
      </Typography>
      {plan.creditPriceUsdCents !== null ? (
        <Typography variant="body2" color="text.secondary">
          {t('plans.price.perCredit', { amount: formatUsdPerCredit(plan.creditPriceUsdCents) })}
        </Typography>
      ) : null}
    </Stack>
  );
}

/** An allowance's cell: 0 blockchains means all (spec §9); the rate limit in requests a second per network, as enforced. */
function AllowanceValue({ name, allowances }: { name: (typeof ALLOWANCE_ROWS)[number]; allowances: TPlanAllowances }) {
  const { t } = useTranslation('accountPlan');
  const value = allowances[name];
  if (name === 'blockchains' && value === 0) return t('plans.allowances.all');
  if (name === 'rateLimit') return t('plans.allowances.rateLimitValue', { count: value, value: formatNumber(value) });
  return formatNumber(value);
}

/**
 * The plans table of the plan step (spec §2): pay as you go against the annual subscription, one
 * column per tier with its price and allowances, and per plan Upgrade (or 'Current plan') and
 * Contact Us. Lower plans than the account's are not offered: they are chosen on the plan page.
 */
export function PlansTable({
  groups,
  subscription,
  selectedId,
  onSelect,
  onContactUs,
}: {
  groups: Group[];
  subscription: TSubscription;
  selectedId: string | null;
  onSelect: (plan: TRatePlan, group: Group) => void;
  onContactUs: (plan: TRatePlan) => void;
}) {
  const { t } = useTranslation('accountPlan');
  const columns = groups.flatMap((group) => group.tiers.map((plan) => ({ plan, group })));
  const borderLeft = (index: number) =>
    groups.some((group, g) => g > 0 && groups.slice(0, g).reduce((n, x) => n + x.tiers.length, 0) === index)
      ? { borderLeft: 1, borderLeftColor: 'divider' }
      : {};

  return (
    <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
      <Table aria-label={t('plans.heading')} sx={{ minWidth: 720 }}>
        <TableHead>
          <TableRow>
            <TableCell rowSpan={2} sx={{ width: 160 }} />
            {groups.map((group, g) => (
              <TableCell
                key={group.type}
                colSpan={group.tiers.length}
                align="center"
                scope="colgroup"
                sx={{ bgcolor: 'action.hover', ...(g > 0 ? { borderLeft: 1, borderLeftColor: 'divider' } : {}) }}
              >
                <Typography component="span" sx={{ fontWeight: 700, display: 'block' }}>
                  {group.name}
                </Typography>
                <Typography component="span" variant="body2" color="text.secondary">
                  {t(`plans.groups.${group.billing}`)}
                </Typography>
              </TableCell>
            ))}
          </TableRow>
          <TableRow>
            {columns.map(({ plan }, index) => (
              <TableCell key={plan.id} scope="col" sx={{ verticalAlign: 'top', ...borderLeft(index) }}>
                <Stack spacing={0.5}>
                  <Typography component="span" sx={{ fontWeight: 600 }}>
                    {plan.name}
                  </Typography>
                  {plan.id === subscription.plan.id ? (
                    <Chip
                      size="small"
                      color="primary"
                      variant="outlined"
                      label={t('plans.current')}
                      sx={{ alignSelf: 'flex-start' }}
                    />
                  ) : null}
                  <Typography component="span" variant="body2" color="text.secondary" sx={{ fontWeight: 400 }}>
                    {plan.shortDescription}
                  </Typography>
                </Stack>
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          <TableRow>
            <TableCell component="th" scope="row">
              {t('plans.priceLabel')}
            </TableCell>
            {columns.map(({ plan }, index) => (
              <TableCell key={plan.id} sx={borderLeft(index)}>
                <PlanPrice plan={plan} />
              </TableCell>
            ))}
          </TableRow>
          {ALLOWANCE_ROWS.map((key) => (
            <TableRow key={key}>
              <TableCell component="th" scope="row">
                {t(`plans.allowances.${key}`)}
                {key === 'rateLimit' ? (
                  // What the gateway counts against the figure (services/gateway/rate-limiter.ts).
                  <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                    {t('plans.allowances.rateLimitNote')}
                  </Typography>
                ) : null}
              </TableCell>
              {columns.map(({ plan }, index) => (
                <TableCell key={plan.id} sx={{ fontVariantNumeric: 'tabular-nums', ...borderLeft(index) }}>
                  <AllowanceValue name={key} allowances={plan.allowances} />
                </TableCell>
              ))}
            </TableRow>
          ))}
          <TableRow>
            <TableCell component="th" scope="row">
              <Box component="span" sx={visuallyHidden}>
                {t('actions.upgrade')}
              </Box>
            </TableCell>
            {columns.map(({ plan, group }, index) => {
              const offer = offerOf(subscription, plan);
              const isSelected = selectedId === plan.id;
              return (
                <TableCell key={plan.id} sx={{ verticalAlign: 'top', ...borderLeft(index) }}>
                  <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
                    {offer === 'CURRENT' ? (
                      <Button variant="outlined" size="small" disabled>
                        {t('plans.current')}
                      </Button>
                    ) : offer === 'LOWER' ? (
                      <Typography variant="body2" color="text.secondary">
                        {t('plans.lower')}
                      </Typography>
                    ) : (
                      <Button
                        variant={isSelected ? 'contained' : 'outlined'}
                        size="small"
                        aria-pressed={isSelected}
                        aria-label={`${t('actions.upgrade')} ${plan.name}`}
                        startIcon={isSelected ? <CheckIcon aria-hidden /> : undefined}
                        onClick={() => onSelect(plan, group)}
                      >
                        {isSelected ? t('actions.selected') : t('actions.upgrade')}
                      </Button>
                    )}
                    <Button
                      size="small"
                      onClick={() => onContactUs(plan)}
                      aria-label={`${t('actions.contactUs')} ${plan.name}`}
                    >
                      {t('actions.contactUs')}
                    </Button>
                  </Stack>
                </TableCell>
              );
            })}
          </TableRow>
        </TableBody>
      </Table>
    </TableContainer>
  );
}
