import ArchiveOutlinedIcon from '@mui/icons-material/ArchiveOutlined';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlineOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import UnarchiveOutlinedIcon from '@mui/icons-material/UnarchiveOutlined';
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
import { isTierInUse, type TSubscriptionTier } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format.ts';
import { formatGbp, formatQnt, formatUsdPerCredit } from '../../../lib/plans/money.ts';

export type TierAction = 'edit' | 'retire' | 'unretire' | 'delete';
export type MoveDirection = 'up' | 'down';

const COLUMNS = ['order', 'name', 'price', 'allowances', 'status', 'actions'] as const;

/** The id of a row's move button, to put the focus back on it once the rows have moved. */
export const moveButtonId = (tierId: string, direction: MoveDirection) => `tier-${tierId}-move-${direction}`;

function Price({ tier }: { tier: TSubscriptionTier }) {
  const { t } = useTranslation('staff');
  return (
    <Stack spacing={0.25}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {tier.type === 'SUBSCRIPTION'
          ? t('tiers.price.perYear', { amount: formatGbp(tier.feeGbpMinor) })
          : tier.creditPriceUsdCents !== null
            ? t('tiers.price.perCredit', { amount: formatUsdPerCredit(tier.creditPriceUsdCents) })
            : t('tiers.price.noFee')}
      </Typography>
      {tier.qntPrice !== null ? (
        <Typography variant="caption" color="text.secondary">
          {t('tiers.price.qnt', { amount: formatQnt(tier.qntPrice) })}
        </Typography>
      ) : null}
      {tier.upfrontMonths !== null ? (
        <Typography variant="caption" color="text.secondary">
          {t('tiers.price.upfront', { count: tier.upfrontMonths })}
        </Typography>
      ) : null}
      {tier.creditBundles.length > 0 ? (
        <Typography variant="caption" color="text.secondary">
          {t('tiers.bundleCount', { count: tier.creditBundles.length })}
        </Typography>
      ) : null}
    </Stack>
  );
}

function Allowances({ tier }: { tier: TSubscriptionTier }) {
  const { t } = useTranslation('staff');
  const say = (key: keyof TSubscriptionTier['allowances']) =>
    t(`tiers.allowances.${key}`, { count: tier.allowances[key], value: formatNumber(tier.allowances[key]) });
  const blockchains = tier.allowances.blockchains === 0 ? t('tiers.allowances.allBlockchains') : say('blockchains');
  return (
    <Typography variant="body2" color="text.secondary" sx={{ fontVariantNumeric: 'tabular-nums', minWidth: 180 }}>
      {[say('applications'), say('tokens'), say('bridges')].join(' · ')}
      <br />
      {[blockchains, say('mainnets'), say('testnets')].join(' · ')}
      <br />
      {say('rateLimit')}
    </Typography>
  );
}

function Usage({ tier }: { tier: TSubscriptionTier }) {
  const { t } = useTranslation('staff');
  if (!isTierInUse(tier)) return <>{t('tiers.usage.none')}</>;
  return (
    <>
      {t('tiers.usage.accounts', { count: tier.usage.accounts })}
      <br />
      {t('tiers.usage.orders', { count: tier.usage.orders })}
    </>
  );
}

/** A row's actions; delete is refused for a tier in use, and still focusable so its tooltip says why. */
function Actions({
  tier,
  onAction,
}: {
  tier: TSubscriptionTier;
  onAction: (tier: TSubscriptionTier, action: TierAction) => void;
}) {
  const { t } = useTranslation('staff');
  const inUse = isTierInUse(tier);
  const name = tier.name;
  return (
    <Stack direction="row" spacing={0}>
      <Tooltip title={t('tiers.actions.edit', { name })}>
        <IconButton size="small" aria-label={t('tiers.actions.edit', { name })} onClick={() => onAction(tier, 'edit')}>
          <EditOutlinedIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {tier.retired ? (
        <Tooltip title={t('tiers.actions.unretire', { name })}>
          <IconButton
            size="small"
            aria-label={t('tiers.actions.unretire', { name })}
            onClick={() => onAction(tier, 'unretire')}
          >
            <UnarchiveOutlinedIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : (
        <Tooltip title={t('tiers.actions.retire', { name })}>
          <IconButton
            size="small"
            aria-label={t('tiers.actions.retire', { name })}
            onClick={() => onAction(tier, 'retire')}
          >
            <ArchiveOutlinedIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      <Tooltip describeChild title={inUse ? t('tiers.actions.deleteInUse') : t('tiers.actions.delete', { name })}>
        <IconButton
          size="small"
          aria-label={t('tiers.actions.delete', { name })}
          aria-disabled={inUse || undefined}
          onClick={() => {
            if (!inUse) onAction(tier, 'delete');
          }}
          sx={inUse ? { color: 'action.disabled' } : { '&:hover': { color: 'error.main' } }}
        >
          <DeleteOutlineIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Stack>
  );
}

/**
 * The tiers in the catalogue's order (the customers' plans table follows it), each movable up and
 * down by keyboard or pointer, with its price, allowances, bundles, status, use and actions.
 */
export function TierTable({
  tiers,
  isMoving,
  onMove,
  onAction,
}: {
  tiers: TSubscriptionTier[];
  isMoving: boolean;
  onMove: (tier: TSubscriptionTier, direction: MoveDirection) => void;
  onAction: (tier: TSubscriptionTier, action: TierAction) => void;
}) {
  const { t } = useTranslation('staff');
  return (
    <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
      <Table aria-label={t('tiers.tableLabel')} size="small" stickyHeader sx={{ minWidth: 860 }}>
        <TableHead>
          <TableRow>
            {COLUMNS.map((column) => (
              <TableCell key={column}>{t(`tiers.columns.${column}`)}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {tiers.map((tier, index) => (
            <TableRow key={tier.id} hover sx={tier.retired ? { '& td': { color: 'text.secondary' } } : undefined}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                  <Typography variant="body2" sx={{ minWidth: 20, fontVariantNumeric: 'tabular-nums' }}>
                    {index + 1}
                  </Typography>
                  {(['up', 'down'] as const).map((direction) => (
                    <IconButton
                      key={direction}
                      id={moveButtonId(tier.id, direction)}
                      size="small"
                      aria-label={t(`tiers.move.${direction}`, { name: tier.name })}
                      disabled={isMoving || (direction === 'up' ? index === 0 : index === tiers.length - 1)}
                      onClick={() => onMove(tier, direction)}
                    >
                      {direction === 'up' ? (
                        <ArrowUpwardIcon fontSize="small" />
                      ) : (
                        <ArrowDownwardIcon fontSize="small" />
                      )}
                    </IconButton>
                  ))}
                </Stack>
              </TableCell>
              <TableCell sx={{ minWidth: 180 }}>
                <Typography variant="body2" component="span" sx={{ fontWeight: 600, display: 'block' }}>
                  {tier.name}
                </Typography>
                <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                  {t(`tiers.types.${tier.type}`)} · {t(`tiers.tiers.${tier.tier}`)}
                </Typography>
                <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                  {tier.shortDescription}
                </Typography>
                <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
                  {tier.code}
                </Typography>
              </TableCell>
              <TableCell sx={{ minWidth: 120 }}>
                <Price tier={tier} />
              </TableCell>
              <TableCell>
                <Allowances tier={tier} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <Chip
                  size="small"
                  variant="outlined"
                  color={tier.retired ? 'default' : 'success'}
                  label={tier.retired ? t('tiers.status.retired') : t('tiers.status.onSale')}
                />
                <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
                  <Usage tier={tier} />
                </Typography>
              </TableCell>
              <TableCell>
                <Actions tier={tier} onAction={onAction} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** The loading state: the table's frame with rows shaped like tiers. */
export function TierTableSkeleton() {
  const { t } = useTranslation('staff');
  return (
    <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }} aria-busy="true">
      <Table aria-label={t('tiers.tableLabel')} size="small" sx={{ minWidth: 860 }}>
        <TableHead>
          <TableRow>
            {COLUMNS.map((column) => (
              <TableCell key={column}>{t(`tiers.columns.${column}`)}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {[0, 1, 2, 3].map((row) => (
            <TableRow key={row}>
              {COLUMNS.map((column) => (
                <TableCell key={column}>
                  <Skeleton height={column === 'allowances' || column === 'name' ? 40 : 24} />
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
