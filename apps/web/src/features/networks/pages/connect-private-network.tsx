import { zodResolver } from '@hookform/resolvers/zod';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import {
  ZPrivateNetworkForm,
  type TPrivateNetworkForm,
  type TPrivateNetworkRequest,
  type TPrivateNetworkValidation,
  type TUserNetwork,
} from '@connect/shared';
import { Page } from '../../../components/page.tsx';
import { paths } from '../../../config/paths.ts';
import { invalidParamsOf } from '../../../lib/problems.ts';
import { formatNumber } from '../../../lib/format.ts';
import { useCreatePrivateNetwork } from '../api/create-private-network.ts';
import { useValidatePrivateNetwork } from '../api/validate-private-network.ts';
import { FlowActions, FlowSteps, useStepFocus } from '../../../components/flow/flow-stepper.tsx';
import { LeaveGuard } from '../../../components/flow/leave-guard.tsx';
import { PrivateNetworkFields } from '../components/private-network-form.tsx';

const STEPS = ['intro', 'details', 'summary', 'confirmation'] as const;
const FIELDS = [
  'name',
  'networkType',
  'chainId',
  'url',
  'eip1559',
  'numberOfBlocks',
  'tokenSymbol',
  'tokenDecimals',
  'nodeType',
] as const satisfies readonly (keyof TPrivateNetworkForm)[];
type Field = (typeof FIELDS)[number];

const EMPTY_FORM = {
  name: '',
  chainId: '',
  url: '',
  eip1559: false,
  numberOfBlocks: '',
  tokenSymbol: '',
  tokenDecimals: '',
  nodeType: '',
} as unknown as TPrivateNetworkForm;

/**
 * Puts the server's field errors (the RPC checks among them) under their fields. Returns false
 * when the error carried none, so the caller shows it as a whole-form message.
 */
function applyFieldErrors(error: unknown, form: UseFormReturn<TPrivateNetworkForm, unknown, TPrivateNetworkRequest>) {
  const known = invalidParamsOf(error).filter((p): p is { name: Field; reason: string } =>
    (FIELDS as readonly string[]).includes(p.name),
  );
  known.forEach((p, index) =>
    form.setError(p.name, { type: 'server', message: p.reason }, { shouldFocus: index === 0 }),
  );
  return known.length > 0;
}

/** /my-networks/connect-private-network: the private network stepper of spec §2.4. */
export function ConnectPrivateNetworkPage() {
  const { t } = useTranslation('integrate');
  const [step, setStep] = useState(0);
  const [checked, setChecked] = useState<{ values: TPrivateNetworkRequest; probe: TPrivateNetworkValidation } | null>(
    null,
  );
  const [created, setCreated] = useState<TUserNetwork | null>(null);
  const [focusField, setFocusField] = useState<Field | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const headingRef = useStepFocus(step, focusField !== null);
  const validate = useValidatePrivateNetwork();
  const create = useCreatePrivateNetwork();
  const form = useForm<TPrivateNetworkForm, unknown, TPrivateNetworkRequest>({
    resolver: zodResolver(ZPrivateNetworkForm),
    defaultValues: EMPTY_FORM,
    mode: 'onTouched',
  });

  // An edit link from the summary focuses its field instead of the step's heading.
  useEffect(() => {
    if (focusField && STEPS[step] === 'details') {
      form.setFocus(focusField);
      setFocusField(null);
    }
  }, [step, focusField, form]);

  const handleCheck = form.handleSubmit((values) => {
    setFormError(null);
    validate.mutate(values, {
      onSuccess: (probe) => {
        setChecked({ values, probe });
        setStep(2);
      },
      onError: (error) => {
        if (!applyFieldErrors(error, form)) setFormError(error.message);
      },
    });
  });

  const handleSubmit = () => {
    if (!checked) return;
    create.mutate(checked.values, {
      onSuccess: (network) => {
        setCreated(network);
        setStep(3);
      },
      onError: (error) => {
        // The node may have changed since the check: back to the fields, errors under them.
        if (applyFieldErrors(error, form)) setStep(1);
      },
    });
  };

  const editField = (field: Field) => {
    create.reset();
    setFocusField(field);
    setStep(1);
  };

  const heading = (text: string) => (
    <Typography ref={headingRef} tabIndex={-1} variant="h3" component="h2" sx={{ mb: 2, outline: 'none' }}>
      {text}
    </Typography>
  );

  const isBusy = validate.isPending || create.isPending;
  const values = checked?.values;
  const display = (field: Field): string => {
    if (!values) return '';
    switch (field) {
      case 'networkType':
        return t(`private.fields.${values.networkType}`);
      case 'nodeType':
        return t(`private.fields.${values.nodeType}`);
      case 'eip1559':
        return values.eip1559 ? t('details.yes') : t('details.no');
      default:
        return String(values[field]);
    }
  };

  return (
    <Page title={t('private.title')} description={t('private.description')}>
      <LeaveGuard
        when={step < 3 && (form.formState.isDirty || step > 0)}
        texts={{ title: t('leave.title'), body: t('leave.body'), stay: t('actions.stay'), leave: t('actions.leave') }}
      />
      <Card>
        <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
          <FlowSteps labels={STEPS.map((s) => t(`private.steps.${s}`))} active={step} />

          {STEPS[step] === 'intro' ? (
            <>
              {heading(t('private.intro.heading'))}
              <Box component="ul" sx={{ pl: 2.5, mt: 0 }}>
                {(t('private.intro.items', { returnObjects: true }) as string[]).map((item) => (
                  <Typography component="li" key={item} sx={{ mb: 0.5 }}>
                    {item}
                  </Typography>
                ))}
              </Box>
              <Alert severity="info">{t('private.intro.review')}</Alert>
              <FlowActions continueLabel={t('actions.continue')} onContinue={() => setStep(1)} />
            </>
          ) : null}

          {STEPS[step] === 'details' ? (
            <form onSubmit={(event) => void handleCheck(event)} noValidate aria-labelledby="private-details-heading">
              <Typography
                id="private-details-heading"
                ref={headingRef}
                tabIndex={-1}
                variant="h3"
                component="h2"
                sx={{ mb: 2, outline: 'none' }}
              >
                {t('private.steps.details')}
              </Typography>
              <Box component="fieldset" disabled={isBusy} sx={{ border: 0, p: 0, m: 0 }}>
                <PrivateNetworkFields control={form.control} />
              </Box>
              <FlowActions
                onBack={() => setStep(0)}
                continueLabel={t('actions.continue')}
                continueType="submit"
                isPending={validate.isPending}
                extra={
                  validate.isPending ? (
                    <Typography role="status" variant="body2" color="text.secondary">
                      {t('private.checking')}
                    </Typography>
                  ) : formError ? (
                    <Alert severity="error">{formError}</Alert>
                  ) : null
                }
              />
            </form>
          ) : null}

          {STEPS[step] === 'summary' && checked ? (
            <>
              {heading(t('private.summaryHeading'))}
              <Alert severity="success" sx={{ mb: 2 }}>
                {t('private.checked', {
                  chainId: checked.probe.chainId,
                  block: formatNumber(checked.probe.latestBlock),
                })}
              </Alert>
              <Box component="dl" sx={{ m: 0 }}>
                {FIELDS.map((field) => (
                  <Stack
                    key={field}
                    direction="row"
                    spacing={2}
                    sx={{ py: 1, borderBottom: 1, borderColor: 'divider', alignItems: 'center' }}
                  >
                    <Typography
                      component="dt"
                      variant="body2"
                      color="text.secondary"
                      sx={{ width: 240, flexShrink: 0 }}
                    >
                      {t(`private.fields.${field}`)}
                    </Typography>
                    <Box
                      component="dd"
                      sx={{ m: 0, flex: 1, display: 'flex', alignItems: 'center', gap: 2, minWidth: 0 }}
                    >
                      <Typography sx={{ flex: 1, overflowWrap: 'anywhere' }}>{display(field)}</Typography>
                      <Button
                        size="small"
                        onClick={() => editField(field)}
                        aria-label={t('private.editField', { field: t(`private.fields.${field}`) })}
                      >
                        {t('actions.edit')}
                      </Button>
                    </Box>
                  </Stack>
                ))}
              </Box>
              {create.isError ? (
                <Alert severity="error" sx={{ mt: 2 }}>
                  {create.error.message}
                </Alert>
              ) : null}
              <FlowActions
                onBack={() => setStep(1)}
                continueLabel={t('actions.submit')}
                onContinue={handleSubmit}
                isPending={create.isPending}
              />
            </>
          ) : null}

          {STEPS[step] === 'confirmation' && created ? (
            <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 2 }}>
              <HourglassTopIcon color="warning" sx={{ fontSize: 48 }} aria-hidden />
              {heading(t('private.confirmationTitle', { name: created.network }))}
              <Typography color="text.secondary">{t('private.confirmationBody')}</Typography>
              <Button component={RouterLink} to={paths.myNetworks} variant="contained">
                {t('actions.done')}
              </Button>
            </Stack>
          ) : null}
        </CardContent>
      </Card>
    </Page>
  );
}
