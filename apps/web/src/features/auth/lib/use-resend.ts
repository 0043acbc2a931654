import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';

/**
 * Sends a new code and says so in the snackbar; a failure goes to `onError` (the page's alert).
 * `isSending` drives the button's progress.
 */
export function useResendCode(send: (email: string) => Promise<unknown>, onError: (error: unknown) => void) {
  const { t } = useTranslation('auth');
  const snackbar = useSnackbar();
  const [isSending, setIsSending] = useState(false);

  async function resend(email: string): Promise<boolean> {
    setIsSending(true);
    try {
      await send(email);
      snackbar.show({ type: 'success', title: t('common.codeSent'), description: t('common.codeSentTo', { email }) });
      return true;
    } catch (error) {
      onError(error);
      return false;
    } finally {
      setIsSending(false);
    }
  }

  return { resend, isSending };
}
