import FactCheckOutlinedIcon from '@mui/icons-material/FactCheckOutlined';
import GppGoodOutlinedIcon from '@mui/icons-material/GppGoodOutlined';
import HubOutlinedIcon from '@mui/icons-material/HubOutlined';
import IntegrationInstructionsOutlinedIcon from '@mui/icons-material/IntegrationInstructionsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ContactDialog } from '../../../components/contact-dialog.tsx';
import { Page } from '../../../components/page.tsx';
import { runtimeConfig } from '../../../lib/runtime-config.ts';

/** The benefits shown as cards; their texts are authoriseFlow.benefits.<id>.title/text. */
const BENEFITS = [
  { id: 'control', icon: GppGoodOutlinedIcon },
  { id: 'audit', icon: FactCheckOutlinedIcon },
  { id: 'networks', icon: HubOutlinedIcon },
  { id: 'integration', icon: IntegrationInstructionsOutlinedIcon },
] as const;

const STEPS = ['talk', 'design', 'live'] as const;

/** /{product}-authorise: what Authorise offers, and a way to talk to the team about it (spec §2.5). */
export function AuthorisePage() {
  const { t } = useTranslation('authoriseFlow');
  const [isContactOpen, setIsContactOpen] = useState(false);
  const product = runtimeConfig().productName;
  const contactButton = (
    <Button variant="contained" onClick={() => setIsContactOpen(true)}>
      {t('contact.open')}
    </Button>
  );

  return (
    <Page title={t('pageTitle', { product })} description={t('description')} actions={contactButton}>
      <Stack spacing={4}>
        <Box component="section" aria-labelledby="authorise-benefits-title">
          <Typography id="authorise-benefits-title" variant="h2" sx={{ mb: 2 }}>
            {t('benefitsTitle')}
          </Typography>
          <Grid container spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {BENEFITS.map(({ id, icon: Icon }) => (
              <Grid key={id} size={{ xs: 12, sm: 6, lg: 3 }} component="li">
                <Card sx={{ height: '100%' }}>
                  <CardContent sx={{ p: 2.5, display: 'flex', flexDirection: 'column', gap: 1 }}>
                    <Box
                      sx={{
                        width: 40,
                        height: 40,
                        borderRadius: 1,
                        display: 'grid',
                        placeItems: 'center',
                        bgcolor: 'action.hover',
                        color: 'primary.main',
                      }}
                    >
                      <Icon aria-hidden />
                    </Box>
                    <Typography variant="h4" component="h3">
                      {t(`benefits.${id}.title`)}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {t(`benefits.${id}.text`)}
                    </Typography>
                  </CardContent>
                </Card>
              </Grid>
            ))}
          </Grid>
        </Box>

        <Card component="section" aria-labelledby="authorise-steps-title">
          <CardContent sx={{ p: 3, '&:last-child': { pb: 3 } }}>
            <Typography id="authorise-steps-title" variant="h2" sx={{ mb: 2 }}>
              {t('stepsTitle')}
            </Typography>
            <Grid container spacing={3} component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }}>
              {STEPS.map((step, i) => (
                <Grid key={step} size={{ xs: 12, md: 4 }} component="li" sx={{ display: 'flex', gap: 1.5 }}>
                  <Box
                    aria-hidden
                    sx={{
                      width: 28,
                      height: 28,
                      flexShrink: 0,
                      borderRadius: '50%',
                      display: 'grid',
                      placeItems: 'center',
                      bgcolor: 'primary.main',
                      color: 'primary.contrastText',
                      fontWeight: 600,
                      fontSize: '0.875rem',
                    }}
                  >
                    {i + 1}
                  </Box>
                  <Box>
                    <Typography variant="h4" component="h3">
                      {t(`steps.${step}.title`)}
                    </Typography>
                    <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                      {t(`steps.${step}.text`)}
                    </Typography>
                  </Box>
                </Grid>
              ))}
            </Grid>
          </CardContent>
        </Card>

        <Card component="section" aria-labelledby="authorise-cta-title" sx={{ bgcolor: 'action.hover' }}>
          <CardContent
            sx={{
              p: 3,
              display: 'flex',
              gap: 2,
              alignItems: 'center',
              justifyContent: 'space-between',
              flexWrap: 'wrap',
              '&:last-child': { pb: 3 },
            }}
          >
            <Box>
              <Typography id="authorise-cta-title" variant="h3" component="h2">
                {t('cta.title')}
              </Typography>
              <Typography color="text.secondary">{t('cta.text')}</Typography>
            </Box>
            {contactButton}
          </CardContent>
        </Card>
      </Stack>
      <ContactDialog
        kind="authorise"
        open={isContactOpen}
        onClose={() => setIsContactOpen(false)}
        title={t('contact.title')}
        description={t('contact.description')}
      />
    </Page>
  );
}
