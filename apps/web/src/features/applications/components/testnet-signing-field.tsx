import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';

/** The testnet signing checkbox: each change is confirmed in a dialog first (spec §2.5). */
export function TestnetSigningField({
  value,
  onChange,
  keyId,
  disabled = false,
}: {
  value: boolean;
  onChange: (value: boolean) => void;
  keyId?: string | undefined;
  disabled?: boolean;
}) {
  const { t } = useTranslation('applicationManager');
  const [pending, setPending] = useState<boolean | null>(null);
  return (
    <>
      <FormControlLabel
        disabled={disabled}
        control={<Checkbox checked={value} onChange={(event) => setPending(event.target.checked)} />}
        label={t('fields.testnetSigning')}
      />
      <ConfirmDialog
        open={pending !== null}
        title={pending ? t('signing.enableTitle') : t('signing.disableTitle')}
        confirmLabel={pending ? t('signing.enable') : t('signing.disable')}
        onClose={() => setPending(null)}
        onConfirm={() => {
          onChange(Boolean(pending));
          setPending(null);
        }}
      >
        {pending
          ? keyId
            ? t('signing.enableBody', { keyId })
            : // While registering, the application and so its key do not exist yet.
              t('signing.enableBodyNewKey')
          : t('signing.disableBody')}
      </ConfirmDialog>
    </>
  );
}
