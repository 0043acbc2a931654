import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TEnvironmentBlockchain, TEnvironmentManagerResponse } from '@connect/shared';
import { useActivateNetworks } from '../api/activate-networks.ts';
import { useEnvironmentNetworks } from '../api/get-environment-networks.ts';
import { FlowActions, FlowSteps } from '../../../components/flow/flow-stepper.tsx';
import { QueryState } from '../../../components/query-state.tsx';

const STEPS = ['intro', 'blockchains', 'summary', 'save'] as const;
type Environment = 'testnet' | 'mainnet';

/**
 * The environment manager of spec §2.4 (intro, select blockchains, summary, save), as a dialog
 * opened from My networks: pick an environment and the blockchains you use; every network of
 * those blockchains in that environment that can be activated is activated on save.
 */
export function EnvironmentManagerDialog({
  open,
  accountId,
  onClose,
}: {
  open: boolean;
  accountId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('integrate');
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{t('environment.title')}</DialogTitle>
      <DialogContent>{open ? <EnvironmentManager accountId={accountId} onClose={onClose} /> : null}</DialogContent>
    </Dialog>
  );
}

function EnvironmentManager({ accountId, onClose }: { accountId: string; onClose: () => void }) {
  const { t } = useTranslation('integrate');
  const environment = useEnvironmentNetworks(accountId);
  return (
    <QueryState
      query={environment}
      loading={
        <Box aria-busy="true" aria-label={t('environment.title')}>
          <Skeleton variant="rounded" height={56} sx={{ mb: 2 }} />
          <Skeleton variant="rounded" height={120} />
        </Box>
      }
    >
      {(data) => <EnvironmentFlow data={data} onClose={onClose} />}
    </QueryState>
  );
}

/** The networks of a blockchain in an environment that would be activated now. */
function activatableIn(blockchain: TEnvironmentBlockchain, environment: Environment) {
  return blockchain.networks.filter((n) => n.networkType === environment && n.activatable);
}

function EnvironmentFlow({ data, onClose }: { data: TEnvironmentManagerResponse; onClose: () => void }) {
  const { t } = useTranslation('integrate');
  const [step, setStep] = useState(0);
  const [environment, setEnvironment] = useState<Environment>('testnet');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const activate = useActivateNetworks();
  const { allowance } = data;
  const inUse = data.blockchains.filter((b) => b.selected).map((b) => b.externalId);
  const newlyChosen = [...chosen].filter((id) => !inUse.includes(id));
  const isAllowanceFull =
    allowance.blockchainAllowance > 0 && inUse.length + newlyChosen.length >= allowance.blockchainAllowance;
  const toActivate = data.blockchains
    .filter((b) => chosen.has(b.externalId))
    .flatMap((b) => activatableIn(b, environment));

  const toggle = (id: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const handleSave = () => {
    if (!toActivate.length) {
      setStep(3);
      return;
    }
    activate.mutate(
      toActivate.map((n) => n.id),
      { onSuccess: () => setStep(3) },
    );
  };

  return (
    <>
      <FlowSteps labels={STEPS.map((s) => t(`environment.steps.${s}`))} active={step} />
      {STEPS[step] === 'intro' ? (
        <>
          <Typography sx={{ mb: 2 }}>{t('environment.intro')}</Typography>
          <FormLabel id="environment-label">{t('environment.environmentLabel')}</FormLabel>
          <RadioGroup
            aria-labelledby="environment-label"
            value={environment}
            onChange={(event) => {
              setEnvironment(event.target.value as Environment);
              setChosen(new Set());
            }}
          >
            <FormControlLabel value="testnet" control={<Radio />} label={t('environment.testnet')} />
            <FormControlLabel value="mainnet" control={<Radio />} label={t('environment.mainnet')} />
          </RadioGroup>
          {environment === 'mainnet' && (!allowance.mainnetsAllowed || allowance.kycStatus !== 'VERIFIED') ? (
            <Alert severity="info" sx={{ mt: 1 }}>
              {!allowance.mainnetsAllowed ? t('myNetworks.mainnetNotice') : t('reasons.KYC_REQUIRED')}
            </Alert>
          ) : null}
          <FlowActions continueLabel={t('actions.continue')} onContinue={() => setStep(1)} />
        </>
      ) : null}

      {STEPS[step] === 'blockchains' ? (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {allowance.blockchainAllowance > 0
              ? t('myNetworks.allowance', {
                  used: inUse.length + newlyChosen.length,
                  allowance: allowance.blockchainAllowance,
                })
              : t('myNetworks.allowanceAll')}
          </Typography>
          <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
            <Box component="legend" sx={{ p: 0, mb: 1, typography: 'subtitle2' }}>
              {t('environment.blockchainsLegend')}
            </Box>
            <Stack spacing={1}>
              {data.blockchains.map((blockchain) => {
                const networks = blockchain.networks.filter((n) => n.networkType === environment);
                const available = activatableIn(blockchain, environment);
                const isChosen = chosen.has(blockchain.externalId);
                const isNew = !inUse.includes(blockchain.externalId);
                const isDisabled = !isChosen && (available.length === 0 || (isNew && isAllowanceFull));
                const reason = networks.find((n) => n.reason)?.reason;
                return (
                  <Box
                    key={blockchain.externalId}
                    sx={{
                      border: 1,
                      borderColor: isChosen ? 'primary.main' : 'divider',
                      borderRadius: 1,
                      px: 1.5,
                      py: 1,
                    }}
                  >
                    <FormControlLabel
                      control={
                        <Checkbox
                          checked={isChosen}
                          disabled={isDisabled}
                          onChange={() => toggle(blockchain.externalId)}
                        />
                      }
                      label={
                        <span>
                          <Typography component="span" sx={{ fontWeight: 600 }}>
                            {blockchain.blockchain}
                          </Typography>
                          {blockchain.selected ? (
                            <Typography component="span" variant="body2" color="success.main">
                              {` · ${t('environment.inUse')}`}
                            </Typography>
                          ) : null}
                          <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
                            {networks.length
                              ? `${networks.map((n) => n.network).join(', ')}${
                                  available.length > 0
                                    ? ''
                                    : reason
                                      ? ` · ${t(`reasons.${reason}`)}`
                                      : ` · ${t('environment.allActive')}`
                                }`
                              : t('environment.noNetworks')}
                          </Typography>
                        </span>
                      }
                    />
                  </Box>
                );
              })}
            </Stack>
          </Box>
          <FlowActions
            onBack={() => setStep(0)}
            continueLabel={t('actions.continue')}
            onContinue={() => setStep(2)}
            isContinueDisabled={chosen.size === 0}
          />
        </>
      ) : null}

      {STEPS[step] === 'summary' ? (
        <>
          <Stack spacing={1.5}>
            <Typography>
              <strong>{t('environment.environmentLabel')}:</strong> {t(`environment.${environment}`)}
            </Typography>
            <Typography>
              <strong>{t('environment.summaryBlockchains')}:</strong>{' '}
              {data.blockchains
                .filter((b) => chosen.has(b.externalId))
                .map((b) => b.blockchain)
                .join(', ')}
            </Typography>
            <div>
              <Typography sx={{ fontWeight: 700 }}>{t('environment.summaryNetworks')}:</Typography>
              {toActivate.length ? (
                <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                  {toActivate.map((n) => (
                    <li key={n.id}>{n.network}</li>
                  ))}
                </Box>
              ) : (
                <Typography color="text.secondary">{t('environment.nothingNew')}</Typography>
              )}
            </div>
          </Stack>
          {activate.isError ? (
            <Alert severity="error" sx={{ mt: 2 }}>
              {activate.error.message}
            </Alert>
          ) : null}
          <FlowActions
            onBack={() => setStep(1)}
            continueLabel={t('actions.save')}
            onContinue={handleSave}
            isPending={activate.isPending}
          />
        </>
      ) : null}

      {STEPS[step] === 'save' ? (
        <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 2 }}>
          <CheckCircleOutlineIcon color="success" sx={{ fontSize: 48 }} aria-hidden />
          <Typography role="status">
            {activate.data?.activated.length
              ? t('environment.saved', { count: activate.data.activated.length })
              : t('environment.savedNothing')}
          </Typography>
          <Button variant="contained" onClick={onClose}>
            {t('actions.close')}
          </Button>
        </Stack>
      ) : null}
    </>
  );
}
