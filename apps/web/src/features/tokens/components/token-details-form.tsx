import AccountBalanceWalletOutlinedIcon from '@mui/icons-material/AccountBalanceWalletOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import InputAdornment from '@mui/material/InputAdornment';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  DEPLOYMENT_TYPES,
  type TDeploymentType,
  type TTierCard,
  type TTokenFormField,
  type TTokenFormInput,
} from '@connect/shared';
import { Controller, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../../components/form-text-field.tsx';

const ADDRESS_FIELDS: readonly TTokenFormField[] = ['supplyHolderAddress', 'minter', 'ownerAddress'];
const NUMBER_FIELDS: readonly TTokenFormField[] = ['decimal', 'initialSupply', 'maxSupply'];

/**
 * Step 3: the token form of the chosen tier (only the fields its contract takes, spec §3) and
 * the deployment option. Each field's rule (spec §5) shows under it as soon as it is left.
 */
export function TokenDetailsForm({
  control,
  fields,
  tier,
  deploymentType,
  onDeploymentType,
  onUseWallet,
  walletError,
}: {
  control: Control<TTokenFormInput>;
  fields: readonly TTokenFormField[];
  tier: TTierCard;
  deploymentType: TDeploymentType;
  onDeploymentType: (type: TDeploymentType) => void;
  /** Fills an address field with the connected wallet's address (connecting first). */
  onUseWallet: (field: TTokenFormField) => void;
  walletError: string | null;
}) {
  const { t } = useTranslation('quantPortfolio');
  const isWalletOffered = tier.bytecodeCredits !== null && tier.deploymentCredits !== null;
  return (
    <Stack spacing={3}>
      <Typography variant="h2" sx={{ fontSize: 20 }}>
        {t('stepper.details.heading')}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2.5 }}>
        {fields.map((field) =>
          field === 'remintable' ? (
            <Controller
              key={field}
              control={control}
              name="remintable"
              render={({ field: f }) => (
                <FormControl sx={{ gridColumn: { md: '1 / -1' } }}>
                  <FormControlLabel
                    control={
                      <Checkbox
                        checked={Boolean(f.value)}
                        onChange={(event) => f.onChange(event.target.checked)}
                        onBlur={f.onBlur}
                      />
                    }
                    label={t('stepper.details.fields.remintable')}
                  />
                  <FormHelperText sx={{ mt: -0.5 }}>{t('stepper.details.hints.remintable')}</FormHelperText>
                </FormControl>
              )}
            />
          ) : (
            <FormTextField
              key={field}
              control={control}
              name={field}
              label={t(`stepper.details.fields.${field}`)}
              helperText={t(`stepper.details.hints.${field}`)}
              required={field !== 'maxSupply'}
              autoComplete="off"
              {...(NUMBER_FIELDS.includes(field) ? { slotProps: { htmlInput: { inputMode: 'numeric' } } } : {})}
              {...(ADDRESS_FIELDS.includes(field)
                ? {
                    sx: { '& input': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 14 } },
                    slotProps: {
                      input: {
                        endAdornment: (
                          <InputAdornment position="end">
                            <Button
                              size="small"
                              onClick={() => onUseWallet(field)}
                              startIcon={<AccountBalanceWalletOutlinedIcon fontSize="small" />}
                              aria-label={`${t('stepper.details.useWallet')}: ${t(`stepper.details.fields.${field}`)}`}
                              sx={{ whiteSpace: 'nowrap' }}
                            >
                              {t('stepper.details.useWallet')}
                            </Button>
                          </InputAdornment>
                        ),
                      },
                    },
                  }
                : {})}
            />
          ),
        )}
      </Box>
      {walletError ? <Alert severity="error">{walletError}</Alert> : null}
      <FormControl>
        <FormLabel id="deployment-option-label">{t('stepper.details.deployment')}</FormLabel>
        <RadioGroup
          aria-labelledby="deployment-option-label"
          value={deploymentType}
          onChange={(event) => onDeploymentType(event.target.value as TDeploymentType)}
        >
          {DEPLOYMENT_TYPES.map((type) => {
            const isDisabled = type === 'META_MASK' && !isWalletOffered;
            return (
              <FormControlLabel
                key={type}
                value={type}
                disabled={isDisabled}
                control={<Radio />}
                sx={{ alignItems: 'flex-start', mt: 1 }}
                label={
                  <Box sx={{ pt: 1 }}>
                    <Typography sx={{ fontWeight: 600 }}>{t(`deploymentType.${type}`)}</Typography>
                    <Typography variant="body2" color="text.secondary">
                      {isDisabled ? t('stepper.details.walletTierUnavailable') : t(`deploymentTypeHint.${type}`)}
                    </Typography>
                  </Box>
                }
              />
            );
          })}
        </RadioGroup>
      </FormControl>
    </Stack>
  );
}
