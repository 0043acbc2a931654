import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod/mini';
import { MESSAGES } from '@connect/shared/light';
import { ZCodeMini } from '@connect/shared/mini';
import { paths } from '../../../config/paths.ts';
import { confirmSignInWithTotp } from '../../../lib/auth.ts';
import { identityErrorMessage, isInvalidSession } from '../../../lib/identity-errors.ts';
import { session } from '../../../lib/storage.ts';
import { CodeScreen } from '../components/code-screen.tsx';
import type { FormFailure } from '../components/form-error.tsx';
import { startSession } from '../lib/session.ts';

const ZMfaCode = z.object({ code: ZCodeMini });

/** /mfa-submit: the authenticator-app code after a password sign-in (SOFTWARE_TOKEN_MFA). */
export function MfaSubmitPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const form = useForm({ resolver: zodResolver(ZMfaCode), mode: 'onTouched', defaultValues: { code: '' } });

  const backToLogin = { to: paths.login, label: t('common.backToLogin'), onClick: () => session.clearChallengedUser() };

  const handleVerify = form.handleSubmit(async ({ code }) => {
    setFailure(null);
    try {
      const userUuid = await confirmSignInWithTotp(code);
      if (!userUuid) {
        // No pending challenge in this tab (spec §7: confirming without a challenged user is false).
        session.clearChallengedUser();
        setFailure({ message: MESSAGES.goBackToLogin, link: backToLogin });
        return;
      }
      await startSession(userUuid);
      await navigate(paths.dashboard, { replace: true });
    } catch (error) {
      if (isInvalidSession(error)) {
        // The challenge can be answered once and lives three minutes: only a new sign-in helps.
        session.clearChallengedUser();
        setFailure({ message: identityErrorMessage(error, 'mfa'), link: backToLogin });
        return;
      }
      setFailure({ message: identityErrorMessage(error, 'mfa') });
    }
  });

  return (
    <CodeScreen
      form={form}
      onSubmit={handleVerify}
      failure={failure}
      title={t('mfaSubmit.title')}
      subtitle={t('mfaSubmit.subtitle')}
      codeLabel={t('fields.mfaCode')}
      codeHint={t('mfaSubmit.codeHint')}
      submitLabel={t('mfaSubmit.submit')}
      onBackToLogin={() => session.clearChallengedUser()}
    />
  );
}
