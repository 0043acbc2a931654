import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ContactDialog } from '../../../components/contact-dialog.tsx';
import { paths } from '../../../config/paths.ts';
import { AccountSection } from './account-section.tsx';

/** Support enquiries: the contact form in a dialog, and the FAQ for quicker answers. */
export function SupportCard() {
  const { t } = useTranslation('account');
  const [isOpen, setIsOpen] = useState(false);
  return (
    <AccountSection id="support-title" title={t('myAccount.support.title')}>
      <Typography variant="body2" color="text.secondary">
        {t('myAccount.support.text')}
      </Typography>
      <Stack direction="row" spacing={2} sx={{ mt: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <Button variant="outlined" onClick={() => setIsOpen(true)}>
          {t('contact.open')}
        </Button>
        <Link component={RouterLink} to={paths.supportFaq}>
          {t('myAccount.support.faq')}
        </Link>
      </Stack>
      <ContactDialog
        kind="support"
        open={isOpen}
        onClose={() => setIsOpen(false)}
        title={t('contact.supportTitle')}
        description={t('contact.supportDescription')}
      />
    </AccountSection>
  );
}
