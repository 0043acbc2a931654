import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import type { TOutboxMessage } from '../api/get-outbox.ts';
import { CopyButton } from '../../../components/copy-button.tsx';

const MONOSPACE = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

/** One sent message: subject and time, the code (large, copyable) when it carries one, the body. */
export function MessageCard({ message }: { message: TOutboxMessage }) {
  const { t } = useTranslation('account');
  return (
    <Card component="article" aria-labelledby={`message-${message.id}`}>
      <CardContent sx={{ p: 3, '&:last-child': { pb: 3 } }}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{ justifyContent: 'space-between', alignItems: { sm: 'baseline' } }}
        >
          <Typography id={`message-${message.id}`} variant="h3" component="h2">
            {message.subject}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexShrink: 0 }}>
            <Chip size="small" variant="outlined" label={message.kind} />
            <Typography variant="body2" color="text.secondary" component="time" dateTime={message.createdAt}>
              {formatDateTime(message.createdAt)}
            </Typography>
          </Stack>
        </Stack>
        {message.code ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 2 }}>
            <Typography variant="body2" color="text.secondary" component="span">
              {t('devMailbox.code')}
            </Typography>
            <Box
              component="code"
              data-testid="message-code"
              sx={{
                fontFamily: MONOSPACE,
                fontSize: '1.75rem',
                fontWeight: 600,
                letterSpacing: '0.15em',
                bgcolor: 'action.hover',
                px: 1.5,
                py: 0.5,
                borderRadius: 1,
              }}
            >
              {message.code}
            </Box>
            <CopyButton value={message.code} label={t('devMailbox.copyCode')} />
          </Stack>
        ) : null}
        <Box
          component="pre"
          sx={{
            fontFamily: MONOSPACE,
            fontSize: '0.875rem',
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            m: 0,
            mt: 2,
            p: 2,
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            bgcolor: 'background.default',
          }}
        >
          {message.text}
        </Box>
      </CardContent>
    </Card>
  );
}
