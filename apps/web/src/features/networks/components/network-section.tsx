import HubOutlinedIcon from '@mui/icons-material/HubOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TNetworkType, TUserNetwork } from '@connect/shared';
import { QueryState } from '../../../components/query-state.tsx';
import { problemMessage } from '../../../lib/problems.ts';
import { useUserNetworks } from '../api/get-user-networks.ts';
import { NetworksTable } from './networks-table.tsx';

/** One section of My networks (testnet, mainnet or private): its table, or a skeleton, error or empty state. */
export function NetworkSection({
  networkType,
  notice,
  action,
  emptyAction,
  onDetails,
  onRequestRemoval,
}: {
  networkType: TNetworkType;
  notice?: ReactNode;
  /** Shown at the right of the section title. */
  action?: ReactNode;
  emptyAction?: ReactNode;
  onDetails: (network: TUserNetwork) => void;
  onRequestRemoval?: (network: TUserNetwork) => void;
}) {
  const { t } = useTranslation('integrate');
  const networks = useUserNetworks(networkType);
  const titleId = `networks-${networkType}-title`;
  const title = t(`myNetworks.sections.${networkType}`);
  return (
    <Card component="section" aria-labelledby={titleId}>
      <CardContent sx={{ p: 3, '&:last-child': { pb: 3 } }}>
        <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 2 }}>
          <Typography id={titleId} variant="h3" component="h2">
            {title}
          </Typography>
          {/* The empty state carries the action itself. */}
          {networks.data?.length ? action : null}
        </Stack>
        {notice}
        <QueryState
          query={networks}
          loading={
            <Box aria-busy="true" aria-label={t('myNetworks.loading', { section: title.toLowerCase() })}>
              {[0, 1, 2].map((row) => (
                <Skeleton key={row} variant="rounded" height={36} sx={{ mb: 1 }} />
              ))}
            </Box>
          }
          errorMessage={(error) =>
            `${t('myNetworks.loadFailed', { section: title.toLowerCase() })} ${problemMessage(error)}`
          }
          errorVariant="row"
        >
          {(list) =>
            list.length === 0 ? (
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, py: 2 }}>
                <HubOutlinedIcon color="disabled" aria-hidden />
                <Typography color="text.secondary" sx={{ flex: 1 }}>
                  {t(`myNetworks.empty.${networkType}`)}
                </Typography>
                {emptyAction}
              </Stack>
            ) : (
              <NetworksTable
                networks={list}
                labelledBy={titleId}
                onDetails={onDetails}
                onRequestRemoval={onRequestRemoval}
              />
            )
          }
        </QueryState>
      </CardContent>
    </Card>
  );
}
