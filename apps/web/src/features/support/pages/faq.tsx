import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { paths } from '../../../config/paths.ts';
import { openHelpInstead } from '../../../lib/outside-tools/index.ts';

/** The questions by topic; their text lives in the account locale under faq.<topic>.<id>. */
const FAQ_TOPICS = {
  signIn: ['password', 'resetPassword', 'mfa', 'mfaLost', 'skipMfa'],
  applications: ['register', 'clientSecret', 'environment', 'callback'],
  networks: ['select', 'mainnets', 'privateNetwork', 'privateRemoval'],
  tokens: ['types', 'deploy', 'statuses', 'limits'],
  plans: ['planTypes', 'credits', 'pending', 'upgrade'],
  invoices: ['where', 'pay'],
  rewards: ['join', 'claim'],
} as const;

type Topic = keyof typeof FAQ_TOPICS;

/** /support/faq: answers to the questions customers ask most, as accordions grouped by topic. */
export function FaqPage() {
  const { t } = useTranslation('account');
  return (
    <Page title={t('faq.title')} description={t('faq.description')}>
      <Stack spacing={4}>
        {(Object.keys(FAQ_TOPICS) as Topic[]).map((topic) => (
          <Box component="section" key={topic} aria-labelledby={`faq-${topic}`}>
            <Typography id={`faq-${topic}`} variant="h2" sx={{ mb: 1.5 }}>
              {t(`faq.${topic}.title`)}
            </Typography>
            <div>
              {FAQ_TOPICS[topic].map((item) => (
                <Accordion
                  key={item}
                  disableGutters
                  variant="outlined"
                  sx={{ '&:not(:first-of-type)': { borderTop: 0 }, '&::before': { display: 'none' } }}
                >
                  <AccordionSummary
                    expandIcon={<ExpandMoreIcon />}
                    id={`faq-${topic}-${item}-header`}
                    aria-controls={`faq-${topic}-${item}-content`}
                  >
                    <Typography component="span" sx={{ fontWeight: 600 }}>
                      {t(`faq.${topic}.${item}.q`)}
                    </Typography>
                  </AccordionSummary>
                  <AccordionDetails>
                    <Typography color="text.secondary" sx={{ whiteSpace: 'pre-line' }}>
                      {t(`faq.${topic}.${item}.a`)}
                    </Typography>
                  </AccordionDetails>
                </Accordion>
              ))}
            </div>
          </Box>
        ))}
        <Card>
          <CardContent
            sx={{
              display: 'flex',
              gap: 2,
              alignItems: 'center',
              justifyContent: 'space-between',
              flexWrap: 'wrap',
              p: 3,
              '&:last-child': { pb: 3 },
            }}
          >
            <Box>
              <Typography variant="h3" component="h2">
                {t('faq.more.title')}
              </Typography>
              <Typography color="text.secondary">{t('faq.more.text')}</Typography>
            </Box>
            <Button variant="outlined" component={RouterLink} to={paths.supportHelp} onClick={openHelpInstead}>
              {t('faq.more.action')}
            </Button>
          </CardContent>
        </Card>
      </Stack>
    </Page>
  );
}
