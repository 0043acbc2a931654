import HelpOutlineIcon from '@mui/icons-material/HelpOutlineOutlined';
import MailOutlineIcon from '@mui/icons-material/MailOutlineOutlined';
import MenuBookOutlinedIcon from '@mui/icons-material/MenuBookOutlined';
import MonitorHeartOutlinedIcon from '@mui/icons-material/MonitorHeartOutlined';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { COMING_SOON_SERVICES, type ServiceName } from '@connect/shared';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ContactDialog } from '../../../components/contact-dialog.tsx';
import { Page } from '../../../components/page.tsx';
import { paths } from '../../../config/paths.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { useHealth } from '../api/get-health.ts';
import { useServiceStatuses } from '../api/get-service-status.ts';

function HelpCard({
  id,
  icon,
  title,
  children,
  action,
}: {
  id: string;
  icon: ReactNode;
  title: string;
  children: ReactNode;
  action: ReactNode;
}) {
  return (
    <Card component="section" aria-labelledby={id} sx={{ height: '100%' }}>
      <CardContent
        sx={{ p: 3, display: 'flex', flexDirection: 'column', gap: 1.5, height: '100%', '&:last-child': { pb: 3 } }}
      >
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
          {icon}
        </Box>
        <Typography id={id} variant="h3" component="h2">
          {title}
        </Typography>
        <Typography color="text.secondary" sx={{ flex: 1 }}>
          {children}
        </Typography>
        <Box>{action}</Box>
      </CardContent>
    </Card>
  );
}

/** One measured check: its name and whether it passed (a skeleton while it is being asked). */
function StatusRow({ name, isPending, isUp }: { name: string; isPending: boolean; isUp: boolean }) {
  const { t } = useTranslation('account');
  return (
    <Box
      component="li"
      sx={{
        display: 'flex',
        justifyContent: 'space-between',
        alignItems: 'center',
        gap: 1,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        px: 1.5,
        py: 1,
      }}
    >
      <Typography variant="body2">{name}</Typography>
      {isPending ? (
        <Skeleton width={80} height={24} aria-label={t('help.status.checking')} />
      ) : (
        <Chip
          size="small"
          variant="outlined"
          color={isUp ? 'success' : 'error'}
          label={isUp ? t('help.status.up') : t('help.status.down')}
        />
      )}
    </Box>
  );
}

/**
 * What the health checks measure, refreshed every minute: whether each built service of this
 * deployment answers its status check, and whether the server reaches its database
 * (GET /api/health). Services whose areas are not built yet answer their check too, but are not
 * reported: "Operational" would promise a feature that is not there. They are named as coming.
 */
function ServiceStatus() {
  const { t } = useTranslation('account');
  const services = runtimeConfig().services.filter(
    (service) => !(COMING_SOON_SERVICES as readonly ServiceName[]).includes(service),
  );
  const statuses = useServiceStatuses(services);
  const health = useHealth();
  const isDatabaseUp = health.data?.database.status === 'up';
  const isAllUp = statuses.every((status) => status.isSuccess) && isDatabaseUp;
  const isChecking = statuses.some((status) => status.isPending) || health.isPending;
  return (
    <Card component="section" aria-labelledby="status-title">
      <CardContent sx={{ p: 3, '&:last-child': { pb: 3 } }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1 }}>
          <MonitorHeartOutlinedIcon color="primary" aria-hidden />
          <Typography id="status-title" variant="h3" component="h2">
            {t('help.status.title')}
          </Typography>
          {isChecking ? null : (
            <Chip
              size="small"
              color={isAllUp ? 'success' : 'warning'}
              label={isAllUp ? t('help.status.allUp') : t('help.status.someDown')}
            />
          )}
        </Stack>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('help.status.text')}
        </Typography>
        <Box
          component="ul"
          sx={{
            listStyle: 'none',
            p: 0,
            m: 0,
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(3, 1fr)' },
            gap: 1,
          }}
        >
          {services.map((service, i) => (
            <StatusRow
              key={service}
              name={t(`help.status.services.${service}`)}
              isPending={statuses[i]?.isPending ?? true}
              isUp={statuses[i]?.isSuccess ?? false}
            />
          ))}
          <StatusRow name={t('help.status.database')} isPending={health.isPending} isUp={isDatabaseUp} />
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {t('help.status.comingSoon', {
            areas: COMING_SOON_SERVICES.map((service) => t(`help.status.comingSoonAreas.${service}`)).join(', '),
          })}
        </Typography>
      </CardContent>
    </Card>
  );
}

/** /support/help ('Support'): the contact form, the documentation, the FAQ and the live service status. */
export function HelpPage() {
  const { t } = useTranslation('account');
  const [isContactOpen, setIsContactOpen] = useState(false);
  const { documentationUrl } = runtimeConfig();
  return (
    <Page
      title={t('help.title')}
      description={t('help.description')}
      actions={
        <Button variant="contained" onClick={() => setIsContactOpen(true)}>
          {t('contact.open')}
        </Button>
      }
    >
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 4 }}>
          <HelpCard
            id="help-contact-title"
            icon={<MailOutlineIcon aria-hidden />}
            title={t('help.contact.title')}
            action={
              <Button variant="outlined" onClick={() => setIsContactOpen(true)}>
                {t('help.contact.action')}
              </Button>
            }
          >
            {t('help.contact.text')}
          </HelpCard>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <HelpCard
            id="help-docs-title"
            icon={<MenuBookOutlinedIcon aria-hidden />}
            title={t('help.docs.title')}
            action={
              <Button
                variant="outlined"
                href={documentationUrl}
                target="_blank"
                rel="noopener noreferrer"
                endIcon={<OpenInNewIcon titleAccess={t('opensInNewTab')} />}
              >
                {t('help.docs.action')}
              </Button>
            }
          >
            {t('help.docs.text')}
          </HelpCard>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <HelpCard
            id="help-faq-title"
            icon={<HelpOutlineIcon aria-hidden />}
            title={t('help.faq.title')}
            action={
              <Button variant="outlined" component={RouterLink} to={paths.supportFaq}>
                {t('help.faq.action')}
              </Button>
            }
          >
            {t('help.faq.text')}
          </HelpCard>
        </Grid>
        <Grid size={12}>
          <ServiceStatus />
        </Grid>
      </Grid>
      <ContactDialog
        kind="support"
        open={isContactOpen}
        onClose={() => setIsContactOpen(false)}
        title={t('contact.supportTitle')}
        description={t('contact.supportDescription')}
      />
    </Page>
  );
}
