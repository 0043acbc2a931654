import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ApplicationType, TApplicationNetwork } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { FlowActions } from '../../../components/flow/flow-stepper.tsx';
import { QueryState, type QueryLike } from '../../../components/query-state.tsx';
import { isApplicationNameTaken } from '../../../lib/problems.ts';
import { applicationPaths } from '../paths.ts';
import { NetworkChecklist } from './network-checklist.tsx';
import { TestnetSigningField } from './testnet-signing-field.tsx';

/**
 * Registration step 3: the account's active networks of the chosen type (at least one), and for
 * testnets the platform's signing. Without such networks it links to activating some (through the
 * page's leave guard, as any other way out: the details filled in are lost). A refusal
 * shows above the buttons, except a taken name, which the details step shows under the name.
 */
export function RegisterNetworksStep({
  applicationType,
  networks,
  networkIds,
  networksError,
  testnetSigning,
  create,
  onNetworks,
  onTestnetSigning,
  onBack,
  onRegister,
}: {
  applicationType: ApplicationType | '';
  networks: QueryLike<TApplicationNetwork[]>;
  networkIds: string[];
  networksError: string | undefined;
  testnetSigning: boolean;
  create: { isPending: boolean; error: Error | null };
  onNetworks: (ids: string[]) => void;
  onTestnetSigning: (isOn: boolean) => void;
  onBack: () => void;
  onRegister: () => void;
}) {
  const { t } = useTranslation('applicationManager');
  return (
    <Box>
      <Typography variant="h2" sx={{ fontSize: 22, mb: 1 }}>
        {t('stepper.networks.heading')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('stepper.networks.body')}
      </Typography>
      <QueryState
        query={networks}
        loading={<Skeleton variant="rounded" height={140} />}
        errorMessage={t('networks.loadError')}
      >
        {(offered) =>
          offered.length === 0 ? (
            <Alert
              severity="info"
              action={
                <Button component={RouterLink} to={applicationPaths.selectNetworks} color="inherit" size="small">
                  {t('networks.activate')}
                </Button>
              }
            >
              {t('networks.none', { type: t(`environment.${applicationType || 'testnet'}`).toLowerCase() })}
            </Alert>
          ) : (
            <Stack spacing={2} sx={{ maxWidth: 640 }}>
              <NetworkChecklist
                networks={offered}
                value={networkIds}
                disabled={create.isPending}
                error={networksError}
                onChange={onNetworks}
              />
              {applicationType === 'testnet' ? (
                <TestnetSigningField value={testnetSigning} onChange={onTestnetSigning} disabled={create.isPending} />
              ) : null}
            </Stack>
          )
        }
      </QueryState>
      {create.error && !isApplicationNameTaken(create.error) ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {create.error.message}
        </Alert>
      ) : null}
      <FlowActions
        onBack={onBack}
        continueLabel={t('stepper.register')}
        onContinue={onRegister}
        isPending={create.isPending}
        isContinueDisabled={!networks.data?.length}
      />
    </Box>
  );
}
