import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { blockchainIdOf, unavailableReason, type TCatalogueNetwork, type TCatalogueResponse } from '@connect/shared';
import { Page } from '../../../components/page.tsx';
import { QueryState } from '../../../components/query-state.tsx';
import { paths } from '../../../config/paths.ts';
import { formatNumber } from '../../../lib/format.ts';
import { useActivateNetworks } from '../api/activate-networks.ts';
import { useNetworkCatalogue } from '../api/get-network-catalogue.ts';
import { FlowActions, FlowSteps, useStepFocus } from '../../../components/flow/flow-stepper.tsx';
import { LeaveGuard } from '../../../components/flow/leave-guard.tsx';
import { NetworkPicker } from '../components/network-picker.tsx';

const STEPS = ['info', 'testnets', 'mainnets', 'summary', 'confirmation'] as const;

/**
 * Why a network cannot be picked now: the server's rules, with the plan's blockchain allowance
 * applied to what is already active plus what this selection adds.
 */
export function pickReason(catalogue: TCatalogueResponse, selected: ReadonlySet<string>) {
  const inUse = new Set(catalogue.networks.filter((n) => n.activated).map((n) => blockchainIdOf(n.technology)));
  for (const network of catalogue.networks) if (selected.has(network.id)) inUse.add(blockchainIdOf(network.technology));
  return (network: TCatalogueNetwork) =>
    unavailableReason(
      { networkType: network.networkType, technology: network.technology, hasRpcUrl: network.reason !== 'NO_RPC_URL' },
      {
        mainnetsAllowed: catalogue.allowance.mainnetsAllowed,
        kycStatus: catalogue.allowance.kycStatus,
        blockchainAllowance: catalogue.allowance.blockchainAllowance,
        blockchainsInUse: [...inUse],
      },
    );
}

/** /my-networks/select-new-networks: the select networks stepper of spec §2.4. */
export function SelectNewNetworksPage() {
  const { t } = useTranslation('integrate');
  const catalogue = useNetworkCatalogue();
  return (
    <Page title={t('select.title')} description={t('select.description')}>
      <Card>
        <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
          <QueryState
            query={catalogue}
            loading={
              <Box aria-busy="true" aria-label={t('select.title')}>
                <Skeleton variant="rounded" height={56} sx={{ mb: 3 }} />
                <Skeleton variant="rounded" height={160} />
              </Box>
            }
          >
            {(data) => <SelectNetworksFlow catalogue={data} />}
          </QueryState>
        </CardContent>
      </Card>
    </Page>
  );
}

function SelectNetworksFlow({ catalogue }: { catalogue: TCatalogueResponse }) {
  const { t } = useTranslation('integrate');
  const [step, setStep] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [showNothingSelected, setShowNothingSelected] = useState(false);
  const activate = useActivateNetworks();
  const headingRef = useStepFocus(step);
  const reasonOf = useMemo(() => pickReason(catalogue, selected), [catalogue, selected]);
  const testnets = catalogue.networks.filter((n) => n.networkType === 'testnet');
  const mainnets = catalogue.networks.filter((n) => n.networkType === 'mainnet');
  const chosen = catalogue.networks.filter((n) => selected.has(n.id));
  const { allowance } = catalogue;
  const isDone = STEPS[step] === 'confirmation';

  const toggle = (network: TCatalogueNetwork) => {
    setShowNothingSelected(false);
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(network.id)) next.delete(network.id);
      else next.add(network.id);
      return next;
    });
  };
  const goTo = (next: number) => {
    activate.reset();
    setStep(next);
  };
  const handleActivate = () => {
    if (!chosen.length) {
      setShowNothingSelected(true);
      return;
    }
    activate.mutate(
      chosen.map((n) => n.id),
      { onSuccess: () => setStep(STEPS.indexOf('confirmation')) },
    );
  };
  const heading = (text: string) => (
    <Typography ref={headingRef} tabIndex={-1} variant="h3" component="h2" sx={{ mb: 2, outline: 'none' }}>
      {text}
    </Typography>
  );
  const mainnetNotice =
    !allowance.mainnetsAllowed || allowance.kycStatus !== 'VERIFIED' ? (
      <Alert
        severity="info"
        sx={{ mb: 2 }}
        action={
          !allowance.mainnetsAllowed ? (
            <Button component={RouterLink} to={paths.accountPlanUpgrade} color="inherit" size="small">
              {t('actions.upgradePlan')}
            </Button>
          ) : undefined
        }
      >
        {!allowance.mainnetsAllowed ? t('myNetworks.mainnetNotice') : t('reasons.KYC_REQUIRED')}
      </Alert>
    ) : null;

  return (
    <>
      <LeaveGuard
        when={!isDone && selected.size > 0}
        texts={{ title: t('leave.title'), body: t('leave.body'), stay: t('actions.stay'), leave: t('actions.leave') }}
      />
      <FlowSteps labels={STEPS.map((s) => t(`select.steps.${s}`))} active={step} />

      {STEPS[step] === 'info' ? (
        <>
          {heading(t('select.info.heading'))}
          <Stack spacing={1.5} component="ul" sx={{ pl: 2.5, m: 0 }}>
            <Typography component="li">{t('select.info.testnets')}</Typography>
            <Typography component="li">{t('select.info.mainnets')}</Typography>
            <Typography component="li">
              {allowance.blockchainAllowance > 0
                ? t('select.info.allowance', {
                    count: allowance.blockchainAllowance,
                    left: allowance.blockchainsLeft ?? 0,
                  })
                : t('select.info.allowanceAll')}
            </Typography>
            <Typography component="li">
              {t('select.info.rateLimit', { count: allowance.rateLimit, value: formatNumber(allowance.rateLimit) })}
            </Typography>
            <Typography component="li">{t('select.info.activation')}</Typography>
          </Stack>
          <FlowActions continueLabel={t('actions.continue')} onContinue={() => goTo(1)} />
        </>
      ) : null}

      {STEPS[step] === 'testnets' ? (
        <>
          {heading(t('select.steps.testnets'))}
          <NetworkPicker
            networks={testnets}
            selected={selected}
            reasonOf={reasonOf}
            onToggle={toggle}
            legend={t('select.testnetsHeading')}
          />
          <FlowActions onBack={() => goTo(0)} continueLabel={t('actions.continue')} onContinue={() => goTo(2)} />
        </>
      ) : null}

      {STEPS[step] === 'mainnets' ? (
        <>
          {heading(t('select.steps.mainnets'))}
          {mainnetNotice}
          <NetworkPicker
            networks={mainnets}
            selected={selected}
            reasonOf={reasonOf}
            onToggle={toggle}
            legend={t('select.mainnetsHeading')}
          />
          <FlowActions onBack={() => goTo(1)} continueLabel={t('actions.continue')} onContinue={() => goTo(3)} />
        </>
      ) : null}

      {STEPS[step] === 'summary' ? (
        <>
          {heading(t('select.summaryHeading'))}
          <Stack spacing={2}>
            {(['testnet', 'mainnet'] as const).map((type) => {
              const items = chosen.filter((n) => n.networkType === type);
              return (
                <Box key={type} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}>
                  <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
                    <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                      {t(type === 'testnet' ? 'select.testnetsHeading' : 'select.mainnetsHeading')}
                    </Typography>
                    <Button
                      size="small"
                      onClick={() => goTo(type === 'testnet' ? 1 : 2)}
                      aria-label={`${t('actions.edit')} ${t(type === 'testnet' ? 'select.testnetsHeading' : 'select.mainnetsHeading')}`}
                    >
                      {t('actions.edit')}
                    </Button>
                  </Stack>
                  {items.length ? (
                    <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                      {items.map((n) => (
                        <Typography component="li" key={n.id}>
                          {n.network} ({n.technology})
                        </Typography>
                      ))}
                    </Box>
                  ) : (
                    <Typography color="text.secondary">{t('select.summaryNone')}</Typography>
                  )}
                </Box>
              );
            })}
          </Stack>
          {showNothingSelected ? (
            <Alert severity="error" sx={{ mt: 2 }}>
              {t('select.nothingSelected')}
            </Alert>
          ) : null}
          {activate.isError ? (
            <Alert severity="error" sx={{ mt: 2 }}>
              {activate.error.message}
            </Alert>
          ) : null}
          <FlowActions
            onBack={() => goTo(2)}
            continueLabel={t('actions.activate')}
            onContinue={handleActivate}
            isPending={activate.isPending}
          />
        </>
      ) : null}

      {isDone ? (
        <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 2 }}>
          <CheckCircleOutlineIcon color="success" sx={{ fontSize: 48 }} aria-hidden />
          {heading(t('select.confirmationTitle'))}
          <Typography color="text.secondary">
            {t('select.confirmationBody', { count: activate.data?.activated.length ?? chosen.length })}
          </Typography>
          <Button component={RouterLink} to={paths.myNetworks} variant="contained">
            {t('actions.done')}
          </Button>
        </Stack>
      ) : null}
    </>
  );
}
