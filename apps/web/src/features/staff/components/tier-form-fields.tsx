import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import {
  PAYMENT_METHODS,
  PLAN_ALLOWANCES,
  PLAN_TIERS,
  PLAN_TYPES,
  TIER_LIMITS,
  type TPaymentMethod,
  type TPlanType,
  type TSubscriptionTierFormValues,
} from '@connect/shared';
import { Controller, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../../components/form-text-field.tsx';

type Form = TSubscriptionTierFormValues;

const grid = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } } as const;
const numeric = { inputMode: 'numeric', autoComplete: 'off' } as const;
const decimal = { inputMode: 'decimal', autoComplete: 'off' } as const;

/** Name, plan type and tier, product id, descriptions. The type and tier are fixed once the tier is in use. */
export function TierIdentityFields({
  control,
  isTypeFixed,
  onTypeChange,
}: {
  control: Control<Form>;
  isTypeFixed: boolean;
  onTypeChange: (type: TPlanType) => void;
}) {
  const { t } = useTranslation('staff');
  return (
    <Box sx={grid}>
      <FormTextField
        control={control}
        name="name"
        label={t('tiers.form.fields.name')}
        helperText={t('tiers.form.hints.name')}
        required
        autoFocus
        slotProps={{ htmlInput: { maxLength: TIER_LIMITS.nameMax } }}
        sx={{ gridColumn: '1 / -1' }}
      />
      <Controller
        control={control}
        name="type"
        render={({ field, fieldState }) => (
          <TextField
            select
            required
            label={t('tiers.form.fields.type')}
            name={field.name}
            value={field.value ?? ''}
            inputRef={field.ref}
            onBlur={field.onBlur}
            onChange={(event) => {
              field.onChange(event);
              onTypeChange(event.target.value as TPlanType);
            }}
            disabled={isTypeFixed}
            error={Boolean(fieldState.error)}
            helperText={fieldState.error?.message ?? (isTypeFixed ? t('tiers.form.inUseFixed') : undefined)}
          >
            {PLAN_TYPES.map((type) => (
              <MenuItem key={type} value={type}>
                {t(`tiers.types.${type}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <FormTextField
        control={control}
        name="tier"
        label={t('tiers.form.fields.tier')}
        select
        required
        disabled={isTypeFixed}
      >
        {PLAN_TIERS.map((tier) => (
          <MenuItem key={tier} value={tier}>
            {t(`tiers.tiers.${tier}`)}
          </MenuItem>
        ))}
      </FormTextField>
      <FormTextField
        control={control}
        name="productId"
        label={t('tiers.form.fields.productId')}
        helperText={t('tiers.form.hints.productId')}
        slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false } }}
        sx={{ gridColumn: '1 / -1' }}
      />
      <FormTextField
        control={control}
        name="shortDescription"
        label={t('tiers.form.fields.shortDescription')}
        helperText={t('tiers.form.hints.shortDescription')}
        required
        sx={{ gridColumn: '1 / -1' }}
      />
      <FormTextField
        control={control}
        name="fullDescription"
        label={t('tiers.form.fields.fullDescription')}
        required
        multiline
        minRows={2}
        sx={{ gridColumn: '1 / -1' }}
      />
    </Box>
  );
}

/**
 * The prices in the units staff think in (pounds a year, QNT, dollars a credit), each with its
 * unit beside it, and the payment methods. Pay as you go has a price per credit and nothing else;
 * the annual subscription its fee, QNT price and upfront months.
 */
export function TierPriceFields({ control, type }: { control: Control<Form>; type: TPlanType | '' }) {
  const { t } = useTranslation('staff');
  const unit = (text: string, position: 'start' | 'end') => ({
    input: { [`${position}Adornment`]: <InputAdornment position={position}>{text}</InputAdornment> },
  });
  return (
    <Box sx={grid}>
      {type === 'SUBSCRIPTION' ? (
        <>
          <FormTextField
            control={control}
            name="feeGbpMinor"
            label={t('tiers.form.fields.feeGbpMinor')}
            helperText={t('tiers.form.hints.feeGbpMinor')}
            required
            slotProps={{ htmlInput: decimal, ...unit(t('tiers.form.units.gbp'), 'start') }}
          />
          <FormTextField
            control={control}
            name="qntPrice"
            label={t('tiers.form.fields.qntPrice')}
            helperText={t('tiers.form.hints.qntPrice')}
            slotProps={{ htmlInput: decimal, ...unit(t('tiers.form.units.qnt'), 'end') }}
          />
          <FormTextField
            control={control}
            name="upfrontMonths"
            label={t('tiers.form.fields.upfrontMonths')}
            helperText={t('tiers.form.hints.upfrontMonths')}
            slotProps={{ htmlInput: numeric, ...unit(t('tiers.form.units.months'), 'end') }}
          />
        </>
      ) : null}
      {type === 'PAY_AS_YOU_GO' ? (
        <FormTextField
          control={control}
          name="creditPriceUsdCents"
          label={t('tiers.form.fields.creditPriceUsdCents')}
          helperText={t('tiers.form.hints.creditPriceUsdCents')}
          required
          slotProps={{ htmlInput: decimal, ...unit(t('tiers.form.units.usd'), 'start') }}
        />
      ) : null}
      <PaymentMethodsField control={control} type={type} />
    </Box>
  );
}

function PaymentMethodsField({ control, type }: { control: Control<Form>; type: TPlanType | '' }) {
  const { t } = useTranslation('staff');
  return (
    <Controller
      control={control}
      name="paymentMethods"
      render={({ field, fieldState }) => {
        const chosen = new Set<TPaymentMethod>(field.value ?? []);
        const toggle = (method: TPaymentMethod, isOn: boolean) => {
          // In the catalogue's order, whatever the order of the clicks.
          field.onChange(PAYMENT_METHODS.filter((m) => (m === method ? isOn : chosen.has(m))));
        };
        return (
          <FormControl component="fieldset" error={Boolean(fieldState.error)} required sx={{ gridColumn: '1 / -1' }}>
            <FormLabel component="legend">{t('tiers.form.fields.paymentMethods')}</FormLabel>
            <FormGroup row>
              {PAYMENT_METHODS.map((method) => (
                <FormControlLabel
                  key={method}
                  label={t(`tiers.methods.${method}`)}
                  control={
                    <Checkbox
                      checked={chosen.has(method)}
                      onChange={(event) => toggle(method, event.target.checked)}
                      onBlur={field.onBlur}
                      // Pay as you go is not paid by bank transfer (the rule says why when it is chosen).
                      disabled={type === 'PAY_AS_YOU_GO' && method === 'BANK_TRANSFER' && !chosen.has(method)}
                    />
                  }
                />
              ))}
            </FormGroup>
            {fieldState.error ? <FormHelperText>{fieldState.error.message}</FormHelperText> : null}
          </FormControl>
        );
      }}
    />
  );
}

/** The allowances the plans table shows; 0 blockchains means all, the rate limit in requests a second. */
export function TierAllowanceFields({ control }: { control: Control<Form> }) {
  const { t } = useTranslation('staff');
  return (
    <Box sx={{ ...grid, gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(4, 1fr)' } }}>
      {PLAN_ALLOWANCES.map((key) => (
        <FormTextField
          key={key}
          control={control}
          name={`allowances.${key}`}
          label={t(`tiers.form.fields.${key}`)}
          required
          helperText={
            key === 'blockchains'
              ? t('tiers.form.hints.blockchains')
              : key === 'rateLimit'
                ? t('tiers.form.hints.rateLimit')
                : undefined
          }
          slotProps={{ htmlInput: numeric }}
        />
      ))}
    </Box>
  );
}
