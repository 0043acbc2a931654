import { zodResolver } from '@hookform/resolvers/zod';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  APPLICATION_MESSAGES,
  APPLICATION_TYPES,
  ZApplicationName,
  ZCallbackUrl,
  type ApplicationType,
  type TCreateApplicationResponse,
} from '@connect/shared';
import { useId, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { z } from 'zod';
import { FlowActions, FlowSteps } from '../../../components/flow/flow-stepper.tsx';
import { LeaveGuard } from '../../../components/flow/leave-guard.tsx';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { Page } from '../../../components/page.tsx';
import { isApplicationNameTaken, problemMessage } from '../../../lib/problems.ts';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { useCreateApplication } from '../api/create-application.ts';
import { useApplicationNetworks } from '../api/get-application-networks.ts';
import { useApplications } from '../api/get-applications.ts';
import { validateApplicationName } from '../api/validate-application-name.ts';
import { CredentialField } from '../components/credential-field.tsx';
import { NetworkChecklist } from '../components/network-checklist.tsx';
import { QuotaReachedAlert } from '../components/quota-reached-alert.tsx';
import { TestnetSigningField } from '../components/testnet-signing-field.tsx';
import { applicationPaths } from '../paths.ts';

/** Step 2's fields: the same rules the server applies (packages/shared). */
const ZDetails = z.object({
  name: ZApplicationName,
  callbackUrl: ZCallbackUrl,
  applicationType: z.enum(APPLICATION_TYPES, { error: APPLICATION_MESSAGES.typeRequired }),
});
type Details = { name: string; callbackUrl: string; applicationType: ApplicationType | '' };

const STEPS = ['intro', 'details', 'networks', 'success'] as const;

/** The registration stepper of spec §2.4: intro, application details, select networks, success. */
export function RegisterApplicationPage() {
  const { t } = useTranslation('applicationManager');
  const navigate = useNavigate();
  const user = useCurrentUser();
  const quotaQuery = useApplications({ page: 0, size: 5 });
  const create = useCreateApplication();
  const [step, setStep] = useState(0);
  const [networkIds, setNetworkIds] = useState<string[]>([]);
  const [networksError, setNetworksError] = useState<string | undefined>();
  const [testnetSigning, setTestnetSigning] = useState(false);
  const [result, setResult] = useState<TCreateApplicationResponse | null>(null);
  const [isChecking, setIsChecking] = useState(false);
  const leavingOnPurpose = useRef(false);
  const typeLabelId = useId();

  const form = useForm<Details>({
    resolver: zodResolver(ZDetails) as never,
    defaultValues: { name: '', callbackUrl: '', applicationType: '' },
    mode: 'onTouched',
  });
  const applicationType = form.watch('applicationType');
  const networks = useApplicationNetworks(applicationType || undefined, { enabled: step === 2 && !!applicationType });

  const quota = quotaQuery.data?.quota;
  const isQuotaReached = quota ? quota.total !== null && quota.used >= quota.total : false;
  const isStarted = step > 0 && step < 3 && (form.formState.isDirty || networkIds.length > 0);
  const isVerified = user.data?.onfidoApplicantStatus === 'VERIFIED';

  const handleDetails = form.handleSubmit(async (values) => {
    if (values.applicationType === 'mainnet' && !isVerified) {
      // Spec §5: mainnet applications need completed identity verification.
      leavingOnPurpose.current = true;
      void navigate(applicationPaths.kyc);
      return;
    }
    setIsChecking(true);
    try {
      await validateApplicationName({ name: values.name });
      setStep(2);
    } catch (error) {
      form.setError('name', { message: problemMessage(error) }, { shouldFocus: true });
    } finally {
      setIsChecking(false);
    }
  });

  const handleRegister = () => {
    if (networkIds.length === 0) {
      setNetworksError(APPLICATION_MESSAGES.networksRequired);
      return;
    }
    const values = form.getValues();
    create.mutate(
      {
        name: values.name,
        callbackUrl: values.callbackUrl,
        applicationType: values.applicationType as ApplicationType,
        networkIds,
        testnetSigning: values.applicationType === 'testnet' && testnetSigning,
      },
      {
        onSuccess: (created) => {
          setResult(created);
          setStep(3);
        },
        onError: (error) => {
          // A name taken meanwhile goes back to the details step, under the name.
          if (isApplicationNameTaken(error)) {
            form.setError('name', { message: problemMessage(error) });
            setStep(1);
          }
        },
      },
    );
  };

  const labels = STEPS.map((key) => t(`stepper.steps.${key}`));

  return (
    <Page title={t('stepper.title')}>
      <LeaveGuard
        when={isStarted}
        bypass={leavingOnPurpose}
        texts={{ title: t('leave.title'), body: t('leave.body'), stay: t('actions.stay'), leave: t('actions.leave') }}
      />
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 4 } }}>
        <FlowSteps labels={labels} active={step} />

        {step === 0 ? (
          <Box>
            <Typography variant="h2" sx={{ fontSize: 22, mb: 1 }}>
              {t('stepper.intro.heading')}
            </Typography>
            <Typography color="text.secondary">{t('stepper.intro.body')}</Typography>
            <List>
              {(['point1', 'point2', 'point3'] as const).map((point) => (
                <ListItem key={point} disableGutters>
                  <CheckCircleOutlineIcon color="primary" fontSize="small" sx={{ mr: 1.5 }} aria-hidden />
                  <ListItemText primary={t(`stepper.intro.${point}`)} />
                </ListItem>
              ))}
            </List>
            {quotaQuery.isPending ? <Skeleton variant="rounded" height={48} /> : null}
            {isQuotaReached && quota ? <QuotaReachedAlert total={quota.total} /> : null}
            <FlowActions
              continueLabel={t('stepper.intro.start')}
              onContinue={() => setStep(1)}
              isContinueDisabled={!quota || isQuotaReached}
            />
          </Box>
        ) : null}

        {step === 1 ? (
          <form onSubmit={(event) => void handleDetails(event)} noValidate>
            <Typography variant="h2" sx={{ fontSize: 22, mb: 2 }}>
              {t('stepper.details.heading')}
            </Typography>
            <fieldset disabled={isChecking} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
              <Stack spacing={2.5} sx={{ maxWidth: 560 }}>
                <FormTextField
                  control={form.control}
                  name="name"
                  label={t('fields.name')}
                  required
                  fullWidth
                  helperText={t('fields.nameHelp')}
                />
                <FormTextField
                  control={form.control}
                  name="callbackUrl"
                  label={t('fields.callbackUrl')}
                  required
                  fullWidth
                  type="url"
                  placeholder="https://"
                  helperText={t('fields.callbackHelp')}
                />
                <Controller
                  control={form.control}
                  name="applicationType"
                  render={({ field, fieldState }) => (
                    <FormControl error={Boolean(fieldState.error)} required>
                      <FormLabel id={typeLabelId}>{t('fields.applicationType')}</FormLabel>
                      <RadioGroup
                        aria-labelledby={typeLabelId}
                        value={field.value}
                        onChange={(event) => {
                          field.onChange(event.target.value);
                          setNetworkIds([]);
                        }}
                      >
                        {APPLICATION_TYPES.map((type) => (
                          <FormControlLabel
                            key={type}
                            value={type}
                            control={<Radio />}
                            label={
                              <span>
                                {t(`environment.${type}`)}
                                <Typography component="span" variant="body2" color="text.secondary">
                                  {' — '}
                                  {t(`fields.${type}Help`)}
                                </Typography>
                              </span>
                            }
                          />
                        ))}
                      </RadioGroup>
                      <FormHelperText>{fieldState.error?.message ?? t('fields.applicationTypeFixed')}</FormHelperText>
                    </FormControl>
                  )}
                />
                {applicationType === 'mainnet' && !isVerified ? (
                  <Alert severity="info">{t('stepper.details.kycNeeded')}</Alert>
                ) : null}
              </Stack>
            </fieldset>
            <FlowActions
              onBack={() => setStep(0)}
              continueLabel={t('actions.continue')}
              continueType="submit"
              isPending={isChecking}
            />
          </form>
        ) : null}

        {step === 2 ? (
          <Box>
            <Typography variant="h2" sx={{ fontSize: 22, mb: 1 }}>
              {t('stepper.networks.heading')}
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {t('stepper.networks.body')}
            </Typography>
            {networks.isPending ? (
              <Skeleton variant="rounded" height={140} />
            ) : networks.isError ? (
              <Alert
                severity="error"
                action={
                  <Button color="inherit" size="small" onClick={() => void networks.refetch()}>
                    {t('actions.retry')}
                  </Button>
                }
              >
                {t('networks.loadError')}
              </Alert>
            ) : networks.data.length === 0 ? (
              <Alert
                severity="info"
                action={
                  <Button
                    component={RouterLink}
                    to={applicationPaths.selectNetworks}
                    color="inherit"
                    size="small"
                    onClick={() => {
                      leavingOnPurpose.current = true;
                    }}
                  >
                    {t('networks.activate')}
                  </Button>
                }
              >
                {t('networks.none', { type: t(`environment.${applicationType || 'testnet'}`).toLowerCase() })}
              </Alert>
            ) : (
              <Stack spacing={2} sx={{ maxWidth: 640 }}>
                <NetworkChecklist
                  networks={networks.data}
                  value={networkIds}
                  disabled={create.isPending}
                  error={networksError}
                  onChange={(ids) => {
                    setNetworkIds(ids);
                    setNetworksError(ids.length ? undefined : APPLICATION_MESSAGES.networksRequired);
                  }}
                />
                {applicationType === 'testnet' ? (
                  <TestnetSigningField
                    value={testnetSigning}
                    onChange={setTestnetSigning}
                    disabled={create.isPending}
                  />
                ) : null}
              </Stack>
            )}
            {create.isError && !isApplicationNameTaken(create.error) ? (
              <Alert severity="error" sx={{ mt: 2 }}>
                {create.error.message}
              </Alert>
            ) : null}
            <FlowActions
              onBack={() => setStep(1)}
              continueLabel={t('stepper.register')}
              onContinue={handleRegister}
              isPending={create.isPending}
              isContinueDisabled={!networks.data?.length}
            />
          </Box>
        ) : null}

        {step === 3 && result ? (
          <Box>
            <Typography variant="h2" sx={{ fontSize: 22, mb: 1 }}>
              {t('stepper.success.heading', { name: result.name })}
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {t('stepper.success.body')}
            </Typography>
            <Alert severity="warning" sx={{ mb: 2 }}>
              {t('secretOnce')}
            </Alert>
            <Box sx={{ maxWidth: 760 }}>
              <CredentialField label={t('fields.clientId')} value={result.clientId} copyLabel={t('copy.clientId')} />
              <CredentialField
                label={t('fields.clientSecret')}
                value={result.clientSecret}
                copyLabel={t('copy.clientSecret')}
                isSecret
              />
              <CredentialField
                label={t('fields.signingServiceName')}
                value={result.signingServiceName}
                copyLabel={t('copy.signingServiceName')}
              />
              <CredentialField label={t('fields.keyId')} value={result.signingKeyId} copyLabel={t('copy.keyId')} />
              <CredentialField
                label={t('fields.publicKey')}
                value={result.signingPublicKey}
                copyLabel={t('copy.publicKey')}
              />
            </Box>
            <Stack direction="row" sx={{ justifyContent: 'flex-end', mt: 4 }}>
              <Button variant="contained" component={RouterLink} to={applicationPaths.list}>
                {t('stepper.success.toList')}
              </Button>
            </Stack>
          </Box>
        ) : null}
      </Paper>
    </Page>
  );
}
