import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlineOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import GroupOutlinedIcon from '@mui/icons-material/GroupOutlined';
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
import type { TBetaAccess, TManagedBetaFeature } from '@connect/shared';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format.ts';

export type BetaFeatureAction = 'participants' | 'edit' | 'delete';

const COLUMNS = ['name', 'featureKey', 'access', 'optIns', 'invitations', 'actions'] as const;

// The locale keys of the feature keys: i18next reads ':' as its namespace separator.
const KEY_NAMES: Record<TManagedBetaFeature['featureKey'], string> = {
  reward: 'reward',
  'mynetworks:v2': 'myNetworks',
  privateNetwork: 'privateNetwork',
  bridge: 'bridge',
};

/** A feature key's readable name ("Bridges" for bridge). */
export const featureKeyName = (key: TManagedBetaFeature['featureKey'], t: TFunction<'beta'>) =>
  t(`featureKeys.${KEY_NAMES[key]}`);

/** Open to every account with Connect Beta, or only to the invited ones. */
export function BetaAccessChip({ access }: { access: TBetaAccess }) {
  const { t } = useTranslation('beta');
  return (
    <Chip
      size="small"
      variant="outlined"
      color={access === 'OPEN' ? 'primary' : 'secondary'}
      label={t(`management.access.${access}`)}
    />
  );
}

const ACTION_ICONS = { participants: GroupOutlinedIcon, edit: EditOutlinedIcon, delete: DeleteOutlineIcon } as const;

/**
 * The beta features: name and description, the feature key each switches on, who may opt in, how
 * many accounts opted in and how many are invited, and the row's actions.
 */
export function BetaFeatureTable({
  features,
  onAction,
}: {
  features: TManagedBetaFeature[];
  onAction: (feature: TManagedBetaFeature, action: BetaFeatureAction) => void;
}) {
  const { t } = useTranslation('beta');
  return (
    <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
      <Table aria-label={t('management.listLabel')} size="small" stickyHeader sx={{ minWidth: 760 }}>
        <TableHead>
          <TableRow>
            {COLUMNS.map((column) => (
              <TableCell key={column} align={column === 'optIns' || column === 'invitations' ? 'right' : 'left'}>
                {t(`management.columns.${column}`)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {features.map((feature) => (
            <TableRow key={feature.id} hover>
              <TableCell sx={{ minWidth: 240, maxWidth: 420 }}>
                <Typography variant="body2" component="span" sx={{ fontWeight: 600, display: 'block' }}>
                  {feature.name}
                </Typography>
                <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                  {feature.description}
                </Typography>
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <Typography variant="body2" component="span" sx={{ display: 'block' }}>
                  {featureKeyName(feature.featureKey, t)}
                </Typography>
                <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
                  {feature.featureKey}
                </Typography>
              </TableCell>
              <TableCell>
                <BetaAccessChip access={feature.access} />
              </TableCell>
              <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {formatNumber(feature.optIns)}
              </TableCell>
              <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {formatNumber(feature.invitations)}
              </TableCell>
              <TableCell>
                <Stack direction="row" spacing={0}>
                  {(['participants', 'edit', 'delete'] as const).map((action) => {
                    const Icon = ACTION_ICONS[action];
                    const label = t(`management.actions.${action}`, { name: feature.name });
                    return (
                      <Tooltip key={action} title={label}>
                        <IconButton
                          size="small"
                          aria-label={label}
                          onClick={() => onAction(feature, action)}
                          sx={action === 'delete' ? { '&:hover': { color: 'error.main' } } : undefined}
                        >
                          <Icon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    );
                  })}
                </Stack>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** The table's place while the catalogue loads. */
export function BetaFeatureTableSkeleton() {
  return (
    <Stack spacing={1} aria-hidden>
      <Skeleton variant="rounded" height={40} />
      {[0, 1, 2].map((row) => (
        <Skeleton key={row} variant="rounded" height={56} />
      ))}
    </Stack>
  );
}
