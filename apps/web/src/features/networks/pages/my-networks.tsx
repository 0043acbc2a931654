import AddIcon from '@mui/icons-material/Add';
import TuneIcon from '@mui/icons-material/Tune';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { isFeatureAvailable, type TUserNetwork } from '@connect/shared';
import { Page } from '../../../components/page.tsx';
import { paths } from '../../../config/paths.ts';
import { formatNumber } from '../../../lib/format.ts';
import { availableFeaturesQuery, useCurrentUser } from '../../../lib/current-user.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { session } from '../../../lib/storage.ts';
import { useNetworkCatalogue } from '../api/get-network-catalogue.ts';
import { DeletePrivateNetworkDialog } from '../components/delete-private-network-dialog.tsx';
import { EnvironmentManagerDialog } from '../components/environment-manager-dialog.tsx';
import { NetworkDetailsDialog } from '../components/network-details-dialog.tsx';
import { NetworkSection } from '../components/network-section.tsx';

/** /my-networks (spec §2.5): testnet, mainnet and private sections, with the flows that fill them. */
export function MyNetworksPage() {
  const { t } = useTranslation('integrate');
  const [searchParams] = useSearchParams();
  const user = useCurrentUser();
  const features = useQuery({
    ...availableFeaturesQuery(session.userUuid() ?? ''),
    enabled: Boolean(session.userUuid()),
  });
  const catalogue = useNetworkCatalogue();
  const [details, setDetails] = useState<TUserNetwork | null>(null);
  const [removing, setRemoving] = useState<TUserNetwork | null>(null);
  const [isEnvironmentOpen, setIsEnvironmentOpen] = useState(false);

  const hasPrivate = features.data ? isFeatureAvailable(features.data, 'privateNetwork') : false;
  const allowance = catalogue.data?.allowance;
  const selectLink = (
    <Button component={RouterLink} to={paths.selectNewNetworks} variant="outlined" size="small">
      {t('actions.selectNetworks')}
    </Button>
  );
  const kycHref = `${paths.flows(runtimeConfig().productSlug)}/kyc?selectNetworks=true`;

  return (
    <Page
      title={t('title')}
      description={t('myNetworks.description')}
      actions={
        <>
          <Button
            variant="outlined"
            startIcon={<TuneIcon />}
            onClick={() => setIsEnvironmentOpen(true)}
            sx={{ whiteSpace: 'nowrap' }}
          >
            {t('actions.environmentManager')}
          </Button>
          <Button
            component={RouterLink}
            to={paths.selectNewNetworks}
            variant="contained"
            startIcon={<AddIcon />}
            sx={{ whiteSpace: 'nowrap' }}
          >
            {t('actions.selectNetworks')}
          </Button>
        </>
      }
    >
      <Stack spacing={3}>
        {searchParams.get('configureNetworks') === 'true' ? (
          <Alert severity="warning">{t('myNetworks.configureNetworks')}</Alert>
        ) : null}
        {allowance ? (
          <div>
            <Typography variant="body2" color="text.secondary">
              {allowance.blockchainAllowance > 0
                ? t('myNetworks.allowance', {
                    used: allowance.blockchainsUsed,
                    allowance: allowance.blockchainAllowance,
                  })
                : t('myNetworks.allowanceAll')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('myNetworks.rateLimit', { count: allowance.rateLimit, value: formatNumber(allowance.rateLimit) })}
            </Typography>
          </div>
        ) : null}
        <NetworkSection networkType="testnet" emptyAction={selectLink} onDetails={setDetails} />
        <NetworkSection
          networkType="mainnet"
          emptyAction={allowance?.mainnetsAllowed ? selectLink : undefined}
          notice={
            allowance && !allowance.mainnetsAllowed ? (
              <Alert
                severity="info"
                sx={{ mb: 2 }}
                action={
                  <Button component={RouterLink} to={paths.accountPlanUpgrade} color="inherit" size="small">
                    {t('actions.upgradePlan')}
                  </Button>
                }
              >
                {t('myNetworks.mainnetNotice')}
                {user.data?.onfidoApplicantStatus !== 'VERIFIED' ? ` ${t('myNetworks.mainnetKycNotice')}` : ''}
              </Alert>
            ) : allowance && user.data && user.data.onfidoApplicantStatus !== 'VERIFIED' ? (
              <Alert
                severity="info"
                sx={{ mb: 2 }}
                action={
                  <Button component={RouterLink} to={kycHref} color="inherit" size="small">
                    {t('actions.verifyIdentity')}
                  </Button>
                }
              >
                {t('reasons.KYC_REQUIRED')}
              </Alert>
            ) : null
          }
          onDetails={setDetails}
        />
        {hasPrivate ? (
          <NetworkSection
            networkType="private"
            emptyAction={
              <Button component={RouterLink} to={paths.connectPrivateNetwork} variant="outlined" size="small">
                {t('actions.connectPrivate')}
              </Button>
            }
            action={
              <Button component={RouterLink} to={paths.connectPrivateNetwork} size="small" startIcon={<AddIcon />}>
                {t('actions.connectPrivate')}
              </Button>
            }
            onDetails={setDetails}
            onRequestRemoval={setRemoving}
          />
        ) : null}
      </Stack>
      <NetworkDetailsDialog network={details} onClose={() => setDetails(null)} />
      <DeletePrivateNetworkDialog network={removing} onClose={() => setRemoving(null)} />
      {user.data ? (
        <EnvironmentManagerDialog
          open={isEnvironmentOpen}
          accountId={user.data.accountId}
          onClose={() => setIsEnvironmentOpen(false)}
        />
      ) : null}
    </Page>
  );
}
