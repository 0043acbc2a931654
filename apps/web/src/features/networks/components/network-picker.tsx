import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TCatalogueNetwork, TNetworkUnavailableReason } from '@connect/shared';
import { formatNumber } from '../../../lib/format.ts';
import { NetworkStatusChip, SandboxChip } from './network-status-chip.tsx';

/**
 * Catalogue networks as a list of checkboxes. A network that cannot be picked stays listed,
 * disabled, with the reason under it; one already active is shown checked and disabled.
 */
export function NetworkPicker({
  networks,
  selected,
  reasonOf,
  onToggle,
  legend,
}: {
  networks: TCatalogueNetwork[];
  selected: ReadonlySet<string>;
  reasonOf: (network: TCatalogueNetwork) => TNetworkUnavailableReason | null;
  onToggle: (network: TCatalogueNetwork) => void;
  legend: string;
}) {
  const { t } = useTranslation('integrate');
  if (!networks.length) {
    return <Typography color="text.secondary">{t('select.noneAvailable')}</Typography>;
  }
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Box component="legend" sx={{ p: 0, mb: 1, typography: 'subtitle2' }}>
        {legend}
      </Box>
      <Stack spacing={1}>
        {networks.map((network) => {
          const isSelected = selected.has(network.id);
          const reason = network.activated || isSelected ? null : reasonOf(network);
          const isDisabled = network.activated || reason !== null;
          const descriptionId = `network-${network.id}-description`;
          return (
            <Box
              key={network.id}
              component="label"
              sx={{
                display: 'flex',
                alignItems: 'flex-start',
                gap: 1,
                p: 1.5,
                border: 1,
                borderRadius: 1,
                borderColor: isSelected ? 'primary.main' : 'divider',
                bgcolor: isDisabled ? 'action.hover' : 'background.paper',
                cursor: isDisabled ? 'default' : 'pointer',
              }}
            >
              <Checkbox
                checked={network.activated || isSelected}
                disabled={isDisabled}
                onChange={() => onToggle(network)}
                slotProps={{ input: { 'aria-describedby': descriptionId } }}
                sx={{ p: 0.5 }}
              />
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
                  <Typography sx={{ fontWeight: 600 }}>{network.network}</Typography>
                  <NetworkStatusChip status={network.status} />
                  {network.isLocal ? <SandboxChip /> : null}
                </Stack>
                <Typography id={descriptionId} variant="body2" color="text.secondary">
                  {[
                    network.technology,
                    t('select.chainId', { chainId: network.chainId }),
                    t('rateLimit', { value: formatNumber(network.networkRateLimit) }),
                  ].join(' · ')}
                  {network.activated ? ` · ${t('select.alreadyActive')}` : ''}
                  {reason ? ` · ${t(`reasons.${reason}`)}` : ''}
                </Typography>
              </Box>
            </Box>
          );
        })}
      </Stack>
    </Box>
  );
}
