import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TCreateApplicationResponse } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { applicationPaths } from '../paths.ts';
import { CredentialField } from './credential-field.tsx';

/** Registration step 4: the credentials, the client secret shown this once. */
export function RegisterSuccessStep({ result }: { result: TCreateApplicationResponse }) {
  const { t } = useTranslation('applicationManager');
  return (
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
  );
}
