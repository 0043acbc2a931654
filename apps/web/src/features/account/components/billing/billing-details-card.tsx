import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { countryName, ZBillingDetailsRequest, type TBillingDetails, type TVatNumberStatus } from '@connect/shared';
import type { z } from 'zod';
import { FormTextField } from '../../../../components/form-text-field.tsx';
import { QueryState } from '../../../../components/query-state.tsx';
import { useSnackbar } from '../../../../components/snackbar/snackbar-context.ts';
import { SubmitButton } from '../../../../components/submit-button.tsx';
import { invalidParamsOf, isProblem, problemMessage } from '../../../../lib/problems.ts';
import { useBillingDetails, useUpdateBillingDetails } from '../../api/billing-details.ts';
import { AccountSection, DetailRow } from '../account-section.tsx';
import { countryOptions } from './countries.ts';

type FormValues = z.input<typeof ZBillingDetailsRequest>;
type Saved = z.output<typeof ZBillingDetailsRequest>;

const FIELDS = [
  'companyName',
  'addressLine1',
  'addressLine2',
  'city',
  'postcode',
  'country',
  'registrationNumber',
  'vatNumber',
  'website',
  'telephone',
  'email',
] as const satisfies readonly (keyof FormValues)[];

function defaultsOf(details: TBillingDetails | null): Record<(typeof FIELDS)[number], string> {
  return {
    companyName: details?.companyName ?? '',
    addressLine1: details?.addressLine1 ?? '',
    addressLine2: details?.addressLine2 ?? '',
    city: details?.city ?? '',
    postcode: details?.postcode ?? '',
    country: details?.country ?? '',
    registrationNumber: details?.registrationNumber ?? '',
    vatNumber: details?.vatNumber ?? '',
    website: details?.website ?? '',
    telephone: details?.telephone ?? '',
    email: details?.email ?? '',
  };
}

/** The VAT number's check: Valid (the register knows it), or Not checked yet (the register could not be asked). */
function VatStatusChip({ status }: { status: TVatNumberStatus }) {
  const { t } = useTranslation('account');
  if (status === 'NONE') return null;
  return (
    <Chip
      size="small"
      color={status === 'VALID' ? 'success' : 'warning'}
      label={t(`myAccount.billing.vatStatus.${status}`)}
      sx={{ ml: 1 }}
    />
  );
}

function BillingDetailsForm({ details, onDone }: { details: TBillingDetails | null; onDone: () => void }) {
  const { t } = useTranslation('account');
  const snackbar = useSnackbar();
  const update = useUpdateBillingDetails();
  const countries = useMemo(countryOptions, []);
  const form = useForm<FormValues, unknown, Saved>({
    resolver: zodResolver(ZBillingDetailsRequest),
    defaultValues: defaultsOf(details),
    mode: 'onTouched',
  });
  const [formError, setFormError] = useState<string | null>(null);

  const handleSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await update.mutateAsync(values);
      snackbar.show({ type: 'success', title: t('myAccount.billing.saved') });
      onDone();
    } catch (error) {
      // The server's field errors (a VAT number the register does not know) go under their fields.
      const params = invalidParamsOf(error).filter((param) =>
        (FIELDS as readonly string[]).includes(param.name.split('.')[0] ?? ''),
      );
      for (const param of params) {
        form.setError(param.name.split('.')[0] as (typeof FIELDS)[number], { message: param.reason });
      }
      if (params.length === 0 && isProblem(error, 'VAT_NUMBER_INVALID')) {
        form.setError('vatNumber', { message: problemMessage(error) });
      } else if (params.length === 0) {
        setFormError(problemMessage(error));
      }
    }
  });

  const text = (
    name: (typeof FIELDS)[number],
    props: { required?: boolean; type?: string; autoComplete?: string } = {},
  ) => (
    <FormTextField
      control={form.control}
      name={name}
      label={t(`myAccount.billing.fields.${name}`)}
      fullWidth
      size="small"
      {...props}
    />
  );

  return (
    <Box component="form" noValidate onSubmit={(event) => void handleSubmit(event)}>
      <Box component="fieldset" disabled={update.isPending} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
        <Grid container spacing={2}>
          <Grid size={12}>{text('companyName', { required: true, autoComplete: 'organization' })}</Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            {text('addressLine1', { required: true, autoComplete: 'address-line1' })}
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>{text('addressLine2', { autoComplete: 'address-line2' })}</Grid>
          <Grid size={{ xs: 12, sm: 6 }}>{text('city', { required: true, autoComplete: 'address-level2' })}</Grid>
          <Grid size={{ xs: 12, sm: 6 }}>{text('postcode', { autoComplete: 'postal-code' })}</Grid>
          <Grid size={12}>
            <FormTextField
              control={form.control}
              name="country"
              label={t('myAccount.billing.fields.country')}
              select
              required
              fullWidth
              size="small"
              slotProps={{ select: { MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } } } }}
            >
              {countries.map((country) => (
                <MenuItem key={country.code} value={country.code}>
                  {`${country.name} (${country.code})`}
                </MenuItem>
              ))}
            </FormTextField>
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>{text('registrationNumber')}</Grid>
          <Grid size={{ xs: 12, sm: 6 }}>{text('vatNumber')}</Grid>
          <Grid size={{ xs: 12, sm: 4 }}>{text('website', { autoComplete: 'url' })}</Grid>
          <Grid size={{ xs: 12, sm: 4 }}>{text('telephone', { type: 'tel', autoComplete: 'tel' })}</Grid>
          <Grid size={{ xs: 12, sm: 4 }}>{text('email', { type: 'email', autoComplete: 'email' })}</Grid>
        </Grid>
        {formError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {formError}
          </Alert>
        ) : null}
        <Stack direction="row" spacing={1} sx={{ mt: 2, justifyContent: 'flex-end' }}>
          <Button color="inherit" onClick={onDone}>
            {t('actions.cancel')}
          </Button>
          <SubmitButton variant="contained" loading={update.isPending}>
            {t('actions.save')}
          </SubmitButton>
        </Stack>
      </Box>
    </Box>
  );
}

function BillingDetailsView({ details }: { details: TBillingDetails }) {
  const { t } = useTranslation('account');
  const address = [details.addressLine1, details.addressLine2, details.city, details.postcode].filter(Boolean);
  const rows: [string, string | null][] = [
    ['registrationNumber', details.registrationNumber],
    ['website', details.website],
    ['telephone', details.telephone],
    ['email', details.email],
  ];
  return (
    <Box component="dl" sx={{ m: 0 }}>
      <DetailRow label={t('myAccount.billing.fields.companyName')}>{details.companyName}</DetailRow>
      <DetailRow label={t('myAccount.billing.address')}>
        {address.join(', ')}
        <br />
        {`${countryName(details.country)} (${details.country})`}
      </DetailRow>
      <DetailRow label={t('myAccount.billing.fields.vatNumber')}>
        {details.vatNumber ?? t('myAccount.billing.none')}
        <VatStatusChip status={details.vatNumberStatus} />
      </DetailRow>
      {rows.map(([name, value]) =>
        value ? (
          <DetailRow key={name} label={t(`myAccount.billing.fields.${name}`)}>
            {value}
          </DetailRow>
        ) : null,
      )}
    </Box>
  );
}

/**
 * The billing details (issue 18): who invoices are made out to — company, address, country (which
 * decides the VAT), registration and VAT numbers, contacts (GET/PUT /user/billing-details). The
 * VAT number is checked with the register when saved; an unknown one is refused under its field.
 */
export function BillingDetailsCard() {
  const { t } = useTranslation('account');
  const billing = useBillingDetails();
  const [isEditing, setIsEditing] = useState(false);
  const details = billing.data?.details ?? null;

  return (
    <AccountSection
      id="billing-details-title"
      title={t('myAccount.billing.title')}
      description={t('myAccount.billing.description')}
      action={
        billing.data && !isEditing ? (
          <Button startIcon={<EditOutlinedIcon />} onClick={() => setIsEditing(true)}>
            {details ? t('myAccount.billing.edit') : t('myAccount.billing.add')}
          </Button>
        ) : undefined
      }
    >
      <QueryState
        query={billing}
        loading={<Skeleton variant="rounded" height={120} />}
        errorMessage={(error) => `${t('myAccount.billing.loadError')} ${problemMessage(error)}`}
        errorVariant="row"
      >
        {() =>
          isEditing ? (
            <BillingDetailsForm details={details} onDone={() => setIsEditing(false)} />
          ) : details ? (
            <BillingDetailsView details={details} />
          ) : (
            <Typography color="text.secondary">{t('myAccount.billing.empty')}</Typography>
          )
        }
      </QueryState>
    </AccountSection>
  );
}
