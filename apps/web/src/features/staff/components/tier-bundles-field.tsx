import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlineOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  unitsFromDecimalText,
  wholeNumberFromText,
  type TSubscriptionTier,
  type TSubscriptionTierFormValues,
} from '@connect/shared';
import { useFieldArray, useFormState, useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { formatUsdPerCredit } from '../../../lib/plans/money.ts';

type Form = TSubscriptionTierFormValues;

/** The price of one credit of a row as typed, or null while the row is not two valid figures. */
function unitPriceOf(credits: string | undefined, price: string | undefined): number | null {
  const count = wholeNumberFromText(credits ?? '', true);
  const cents = unitsFromDecimalText(price ?? '', 2);
  if (!Number.isFinite(count) || count <= 0 || cents === null) return null;
  return Math.round((Number(cents) / count) * 100) / 100;
}

function UnitPrice({ control, index }: { control: Control<Form>; index: number }) {
  const { t } = useTranslation('staff');
  const [credits, price] = useWatch({
    control,
    name: [`creditBundles.${index}.credits`, `creditBundles.${index}.priceUsdCents`],
  });
  const unit = unitPriceOf(credits, price);
  return (
    <Typography variant="body2" color="text.secondary" sx={{ minWidth: 120, pt: 2 }}>
      {unit === null ? '—' : t('tiers.form.hints.unitPrice', { amount: formatUsdPerCredit(unit) })}
    </Typography>
  );
}

/**
 * The tier's credit bundles as rows (credits, the price including VAT in US dollars, the price a
 * credit that makes), added and removed here. A bundle an order names keeps its row: it can be
 * repriced, and its remove button says why it cannot go (the server refuses it too).
 */
export function TierBundlesField({ control, tier }: { control: Control<Form>; tier: TSubscriptionTier | null }) {
  const { t } = useTranslation('staff');
  // `key`, not `id`: a row's `id` is the bundle's own (it keeps an existing bundle).
  const { fields, append, remove } = useFieldArray({ control, name: 'creditBundles', keyName: 'key' });
  const { errors } = useFormState({ control, name: 'creditBundles' });
  const listError = errors.creditBundles?.root?.message ?? errors.creditBundles?.message;
  const ordered = new Set(tier?.creditBundles.filter((bundle) => bundle.isOrdered).map((bundle) => bundle.id));

  return (
    <Stack spacing={1.5}>
      <Typography variant="body2" color="text.secondary">
        {t('tiers.form.hints.bundles')}
      </Typography>
      {fields.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('tiers.form.hints.noBundles')}
        </Typography>
      ) : null}
      {fields.map((field, index) => {
        const isOrdered = field.id !== undefined && ordered.has(field.id);
        const credits = field.credits || '?';
        return (
          <Box
            key={field.key}
            role="group"
            aria-label={`${t('tiers.form.sections.bundles')} ${index + 1}`}
            sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap' }}
          >
            <FormTextField
              control={control}
              name={`creditBundles.${index}.credits`}
              label={t('tiers.form.fields.credits')}
              required
              slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
              sx={{ width: 160 }}
            />
            <FormTextField
              control={control}
              name={`creditBundles.${index}.priceUsdCents`}
              label={t('tiers.form.fields.bundlePrice')}
              required
              slotProps={{
                htmlInput: { inputMode: 'decimal', autoComplete: 'off' },
                input: {
                  startAdornment: <InputAdornment position="start">{t('tiers.form.units.usd')}</InputAdornment>,
                },
              }}
              sx={{ width: 200 }}
            />
            <UnitPrice control={control} index={index} />
            <Tooltip describeChild title={isOrdered ? t('tiers.form.bundleOrdered') : ''}>
              <IconButton
                aria-label={field.id ? t('tiers.form.removeBundle', { credits }) : t('tiers.form.removeNewBundle')}
                // Focusable while refused, so the tooltip saying why is reachable by keyboard.
                aria-disabled={isOrdered || undefined}
                onClick={() => {
                  if (!isOrdered) remove(index);
                }}
                sx={{ mt: 1, ...(isOrdered ? { color: 'action.disabled' } : {}) }}
              >
                <DeleteOutlineIcon />
              </IconButton>
            </Tooltip>
          </Box>
        );
      })}
      {listError ? <FormHelperText error>{listError}</FormHelperText> : null}
      <Box>
        <Button
          startIcon={<AddIcon />}
          onClick={() => append({ credits: '', priceUsdCents: '' }, { shouldFocus: true })}
        >
          {t('tiers.form.addBundle')}
        </Button>
      </Box>
    </Stack>
  );
}
