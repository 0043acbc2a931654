import type { Control, Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../../components/form-text-field.tsx';

type NameAndCallback = { name: string; callbackUrl: string };

/** An application's name and callback URL, as registration and the edit dialog ask for them. */
export function NameAndCallbackFields<T extends NameAndCallback>({
  control,
  callbackPlaceholder,
}: {
  control: Control<T>;
  callbackPlaceholder?: string;
}) {
  const { t } = useTranslation('applicationManager');
  return (
    <>
      <FormTextField
        control={control}
        name={'name' as Path<T>}
        label={t('fields.name')}
        required
        fullWidth
        helperText={t('fields.nameHelp')}
      />
      <FormTextField
        control={control}
        name={'callbackUrl' as Path<T>}
        label={t('fields.callbackUrl')}
        required
        fullWidth
        type="url"
        {...(callbackPlaceholder ? { placeholder: callbackPlaceholder } : {})}
        helperText={t('fields.callbackHelp')}
      />
    </>
  );
}
