import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Skeleton from '@mui/material/Skeleton';
import type { ApplicationType } from '@connect/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { problemMessage } from '../../../lib/problems.ts';
import { useAccountNetworks } from '../api/get-account-networks.ts';

/**
 * The networks an application created for a user may use: their account's activated networks of
 * the application's type (GET /management/networks/{accountId}/{networkType}), at least one.
 */
export function AccountNetworkField({
  accountId,
  applicationType,
  value,
  onChange,
  error,
  disabled,
}: {
  /** The chosen user's account; undefined until a user is chosen. */
  accountId: string | undefined;
  applicationType: ApplicationType;
  value: string[];
  onChange: (networkIds: string[]) => void;
  error: string | undefined;
  disabled: boolean;
}) {
  const { t } = useTranslation('staff');
  const labelId = useId();
  const networks = useAccountNetworks(accountId, applicationType);
  const type = t(`applications.types.${applicationType}`).toLowerCase();

  let body;
  if (!accountId) body = <FormHelperText>{t('applications.create.chooseUserFirst')}</FormHelperText>;
  else if (networks.isPending)
    body = <Skeleton variant="rounded" height={40} aria-label={t('applications.create.networksLoading')} />;
  else if (networks.isError) body = <FormHelperText error>{problemMessage(networks.error)}</FormHelperText>;
  else if (!networks.data.length)
    body = <FormHelperText>{t('applications.create.noNetworks', { type })}</FormHelperText>;
  else
    body = (
      <FormGroup>
        {networks.data.map((network) => (
          <FormControlLabel
            key={network.id}
            label={network.name}
            control={
              <Checkbox
                size="small"
                checked={value.includes(network.id)}
                disabled={disabled}
                onChange={(event) =>
                  onChange(event.target.checked ? [...value, network.id] : value.filter((id) => id !== network.id))
                }
              />
            }
          />
        ))}
      </FormGroup>
    );

  return (
    <FormControl component="fieldset" error={Boolean(error)} required>
      <FormLabel component="legend" id={labelId}>
        {t('applications.fields.networks')}
      </FormLabel>
      {body}
      {error ? <FormHelperText>{error}</FormHelperText> : null}
    </FormControl>
  );
}
