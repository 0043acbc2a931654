import MarkEmailUnreadOutlinedIcon from '@mui/icons-material/MarkEmailUnreadOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Logo } from '../../../components/logo.tsx';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { OUTBOX_REFRESH_MS, useOutbox } from '../api/get-outbox.ts';
import { MessageCard } from '../components/message-card.tsx';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { QueryState } from '../../../components/query-state.tsx';

function Frame({ children }: { children: React.ReactNode }) {
  const { t } = useTranslation('account');
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Box
        component="header"
        sx={{
          px: { xs: 3, md: 4 },
          height: 64,
          display: 'flex',
          alignItems: 'center',
          gap: 1.5,
          borderBottom: 1,
          borderColor: 'divider',
          bgcolor: 'background.paper',
        }}
      >
        <Logo />
        <Chip size="small" color="warning" variant="outlined" label={t('devMailbox.sandbox')} />
      </Box>
      <Container component="main" maxWidth="md" sx={{ py: 5 }}>
        {children}
      </Container>
    </Box>
  );
}

/**
 * /dev/mailbox: reads the embedded mailer's outbox, so sign-up and reset codes can be used
 * without a mail server. Outside production only; elsewhere it is a not-found page.
 */
export function DevMailboxPage() {
  const { t } = useTranslation('account');
  const [searchParams, setSearchParams] = useSearchParams();
  const address = (searchParams.get('to') ?? '').trim().toLowerCase();
  const [draft, setDraft] = useState(address);
  const isEnabled = runtimeConfig().devMailbox;
  const outbox = useOutbox(isEnabled ? address : '');

  if (!isEnabled) {
    return (
      <Frame>
        <Box sx={{ textAlign: 'center', py: 8 }}>
          <Typography variant="h1" sx={{ mb: 2 }}>
            {t('devMailbox.notFoundTitle')}
          </Typography>
          <Typography color="text.secondary">{t('devMailbox.notFoundText')}</Typography>
        </Box>
      </Frame>
    );
  }

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const to = draft.trim().toLowerCase();
    setSearchParams(to ? { to } : {}, { replace: true });
  };

  return (
    <Frame>
      <Typography variant="h1">{t('devMailbox.title')}</Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5, mb: 3 }}>
        {t('devMailbox.description', { seconds: OUTBOX_REFRESH_MS / 1000 })}
      </Typography>
      <Box component="form" onSubmit={handleSubmit} role="search" sx={{ mb: 3 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
          <TextField
            label={t('devMailbox.email')}
            type="email"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            autoComplete="email"
            sx={{ bgcolor: 'background.paper' }}
          />
          <SubmitButton variant="contained" size="large" sx={{ flexShrink: 0, height: 56 }}>
            {t('devMailbox.show')}
          </SubmitButton>
        </Stack>
      </Box>

      {!address ? (
        <Typography color="text.secondary">{t('devMailbox.prompt')}</Typography>
      ) : (
        <QueryState
          query={outbox}
          loading={
            <Stack spacing={2} aria-busy="true" aria-label={t('devMailbox.loading')}>
              {[0, 1].map((row) => (
                <Skeleton key={row} variant="rounded" height={180} />
              ))}
            </Stack>
          }
          errorMessage={t('devMailbox.loadFailed')}
        >
          {(messages) =>
            messages.length === 0 ? (
              <Card>
                <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 4 }}>
                  <MarkEmailUnreadOutlinedIcon color="action" aria-hidden />
                  <Typography>{t('devMailbox.empty')}</Typography>
                </CardContent>
              </Card>
            ) : (
              <Stack spacing={2} component="section" aria-label={t('devMailbox.listLabel', { address })}>
                {messages.map((message) => (
                  <MessageCard key={message.id} message={message} />
                ))}
              </Stack>
            )
          }
        </QueryState>
      )}
    </Frame>
  );
}
