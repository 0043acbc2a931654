import Button from '@mui/material/Button';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { signOutEverywhere } from '../../../lib/auth.ts';

/** The way out of an onboarding step the user does not want to finish now. */
export function SignOutButton() {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [isSigningOut, setIsSigningOut] = useState(false);

  const handleSignOut = async () => {
    setIsSigningOut(true);
    await signOutEverywhere();
    queryClient.clear();
    await navigate(paths.login, { replace: true });
  };

  return (
    <Button color="inherit" onClick={() => void handleSignOut()} disabled={isSigningOut}>
      {t('onboarding.signOut')}
    </Button>
  );
}
