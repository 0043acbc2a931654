import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Grid from '@mui/material/Grid';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { SecretStatus, TApplication, TApplicationSecret } from '@connect/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { useApplication } from '../api/get-application.ts';
import { useRevokeSecret } from '../api/revoke-secret.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { CredentialField } from './credential-field.tsx';
import { EnvironmentChip } from './environment-chip.tsx';
import { GatewayAccess } from './gateway-access.tsx';
import { RotateSecretDialog } from './rotate-secret-dialog.tsx';
import { UsageSection } from './usage-section.tsx';

const STATUS_COLOURS: Record<SecretStatus, 'success' | 'warning' | 'error' | 'default'> = {
  ACTIVE: 'success',
  EXPIRING: 'warning',
  EXPIRED: 'default',
  REVOKED: 'error',
};

function SecretLine({ secret, onRevoke }: { secret: TApplicationSecret; onRevoke: () => void }) {
  const { t } = useTranslation('applicationManager');
  const when =
    secret.status === 'REVOKED'
      ? t('details.secretRevoked', { date: formatDateTime(secret.revokedAt) })
      : secret.status === 'EXPIRED'
        ? t('details.secretExpired', { date: formatDateTime(secret.expiresAt) })
        : secret.status === 'EXPIRING'
          ? t('details.secretExpires', { date: formatDateTime(secret.expiresAt) })
          : t('details.secretCreated', { date: formatDateTime(secret.createdAt) });
  return (
    <ListItem
      disableGutters
      secondaryAction={
        secret.status === 'EXPIRING' ? (
          <Button size="small" color="error" onClick={onRevoke}>
            {t('details.revokeNow')}
          </Button>
        ) : undefined
      }
    >
      <ListItemText
        primary={
          <Box component="span" sx={{ display: 'inline-flex', gap: 1, alignItems: 'center' }}>
            <span>{t('details.secretHint', { hint: secret.hint })}</span>
            <Chip size="small" color={STATUS_COLOURS[secret.status]} label={t(`details.status.${secret.status}`)} />
          </Box>
        }
        secondary={when}
      />
    </ListItem>
  );
}

/** Everything about one application (spec §2.5 details dialog), its secrets and its usage. */
export function ApplicationDetailsDialog({
  application: initial,
  open,
  onClose,
}: {
  application: TApplication;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('applicationManager');
  const titleId = useId();
  const { data: application = initial } = useApplication(initial.id, { initialData: initial });
  const [isRotating, setIsRotating] = useState(false);
  const [revoking, setRevoking] = useState<TApplicationSecret | null>(null);
  const revoke = useRevokeSecret();

  return (
    <>
      <Dialog open={open} onClose={onClose} aria-labelledby={titleId} maxWidth="md" fullWidth scroll="paper">
        <DialogTitle id={titleId} sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
          {t('details.title', { name: application.name })}
          <EnvironmentChip type={application.applicationType} />
        </DialogTitle>
        <DialogContent dividers>
          <Grid container columnSpacing={4}>
            <Grid size={{ xs: 12, md: 6 }}>
              <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
                {t('details.credentials')}
              </Typography>
              <CredentialField
                label={t('fields.clientId')}
                value={application.clientId}
                copyLabel={t('copy.clientId')}
              />
              <CredentialField
                label={t('fields.accountId')}
                value={application.accountId}
                copyLabel={t('copy.accountId')}
              />
              <CredentialField
                label={t('fields.callbackUrl')}
                value={application.callbackUrl}
                copyLabel={t('copy.callbackUrl')}
              />
              <Box sx={{ py: 1 }}>
                <Typography variant="body2" color="text.secondary">
                  {t('fields.created')}
                </Typography>
                <Typography>{formatDateTime(application.createdAt)}</Typography>
              </Box>
              <Box sx={{ py: 1 }}>
                <Typography variant="body2" color="text.secondary">
                  {t('fields.networks')}
                </Typography>
                <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mt: 0.5 }}>
                  {application.networks.map((network) => (
                    <Chip key={network.id} size="small" label={network.name} />
                  ))}
                </Stack>
              </Box>
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
                {t('details.signing')}
              </Typography>
              <CredentialField
                label={t('fields.signingServiceName')}
                value={application.signingServiceName}
                copyLabel={t('copy.signingServiceName')}
              />
              <CredentialField label={t('fields.keyId')} value={application.signingKeyId} copyLabel={t('copy.keyId')} />
              <CredentialField
                label={t('fields.publicKey')}
                value={application.signingPublicKey}
                copyLabel={t('copy.publicKey')}
              />
              <Box sx={{ py: 1 }}>
                <Typography variant="body2" color="text.secondary">
                  {t('fields.testnetSigningStatus')}
                </Typography>
                <Typography>{application.testnetSigning ? t('fields.on') : t('fields.off')}</Typography>
              </Box>
            </Grid>
          </Grid>
          <Divider sx={{ my: 2 }} />
          <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
            <Typography variant="subtitle2" component="h3">
              {t('details.secrets')}
            </Typography>
            <Button variant="outlined" size="small" onClick={() => setIsRotating(true)}>
              {t('details.rotate')}
            </Button>
          </Stack>
          <Typography variant="body2" color="text.secondary">
            {t('details.secretsHelp')}
          </Typography>
          <List dense aria-label={t('details.secrets')}>
            {application.secrets.map((secret) => (
              <SecretLine key={secret.id} secret={secret} onRevoke={() => setRevoking(secret)} />
            ))}
          </List>
          <Divider sx={{ my: 2 }} />
          <GatewayAccess application={application} />
          <Divider sx={{ my: 2 }} />
          {open ? <UsageSection applicationId={application.id} /> : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 1.5 }}>
          <Button onClick={onClose}>{t('actions.close')}</Button>
        </DialogActions>
      </Dialog>
      <RotateSecretDialog application={application} open={isRotating} onClose={() => setIsRotating(false)} />
      <ConfirmDialog
        open={revoking !== null}
        title={t('details.revokeTitle', { hint: revoking?.hint ?? '' })}
        confirmLabel={t('details.revokeNow')}
        isDestructive
        isPending={revoke.isPending}
        error={revoke.isError ? revoke.error.message : null}
        onClose={() => {
          revoke.reset();
          setRevoking(null);
        }}
        onConfirm={() =>
          revoking &&
          revoke.mutate({ id: application.id, secretId: revoking.id }, { onSuccess: () => setRevoking(null) })
        }
      >
        {t('details.revokeBody')}
      </ConfirmDialog>
    </>
  );
}
