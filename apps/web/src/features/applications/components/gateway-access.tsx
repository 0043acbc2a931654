import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { TApplication } from '@connect/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button.tsx';
import { accessTokenUrl, curlSnippet, gatewayUrl, viemSnippet } from '../utils/gateway-snippets.ts';
import { CredentialField } from './credential-field.tsx';

const LANGUAGES = ['curl', 'viem'] as const;
type Language = (typeof LANGUAGES)[number];
const SNIPPETS: Record<Language, typeof curlSnippet> = { curl: curlSnippet, viem: viemSnippet };

/**
 * How an application reaches its networks: the real gateway endpoint of each associated network
 * and copyable curl and viem examples that get an access token and make a first call. The API is served
 * by the portal's own origin, whatever host the portal was opened at.
 */
export function GatewayAccess({ application }: { application: TApplication }) {
  const { t } = useTranslation('applicationManager');
  const headingId = useId();
  const tabsId = useId();
  const origin = window.location.origin;
  const [language, setLanguage] = useState<Language>('curl');
  const [networkId, setNetworkId] = useState(application.networks[0]?.id);
  const network = application.networks.find((n) => n.id === networkId) ?? application.networks[0];

  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="subtitle2" component="h3">
        {t('gateway.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('gateway.description', { accessTokenUrl: accessTokenUrl(origin) })}
      </Typography>
      {network ? null : (
        <Typography variant="body2" sx={{ mt: 1 }}>
          {t('gateway.noNetworks')}
        </Typography>
      )}
      {application.networks.map((n) => (
        <CredentialField
          key={n.id}
          label={t('gateway.endpoint', { network: n.name })}
          value={gatewayUrl(origin, n.code)}
          copyLabel={t('gateway.copyEndpoint', { network: n.name })}
        />
      ))}
      {network ? (
        <Box sx={{ mt: 1, border: 1, borderColor: 'divider', borderRadius: 1 }}>
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            sx={{
              alignItems: { xs: 'stretch', sm: 'center' },
              justifyContent: 'space-between',
              px: 1.5,
              pt: 0.5,
              borderBottom: 1,
              borderColor: 'divider',
            }}
          >
            <Tabs
              value={language}
              onChange={(_event, value: Language) => setLanguage(value)}
              aria-label={t('gateway.examples')}
              sx={{ minHeight: 40, '& .MuiTab-root': { minHeight: 40, textTransform: 'none' } }}
            >
              {LANGUAGES.map((lang) => (
                <Tab
                  key={lang}
                  value={lang}
                  label={lang}
                  id={`${tabsId}-tab-${lang}`}
                  aria-controls={`${tabsId}-panel-${lang}`}
                />
              ))}
            </Tabs>
            {application.networks.length > 1 ? (
              <TextField
                select
                size="small"
                label={t('gateway.exampleNetwork')}
                value={network.id}
                onChange={(event) => setNetworkId(event.target.value)}
                sx={{ minWidth: 200, pb: { xs: 1, sm: 0 } }}
              >
                {application.networks.map((n) => (
                  <MenuItem key={n.id} value={n.id}>
                    {n.name}
                  </MenuItem>
                ))}
              </TextField>
            ) : null}
          </Stack>
          {LANGUAGES.map((lang) => {
            const snippet = SNIPPETS[lang]({ origin, clientId: application.clientId, networkCode: network.code });
            return (
              <Box
                key={lang}
                role="tabpanel"
                id={`${tabsId}-panel-${lang}`}
                aria-labelledby={`${tabsId}-tab-${lang}`}
                hidden={lang !== language}
                sx={{ position: 'relative' }}
              >
                {lang === language ? (
                  <>
                    <Box sx={{ position: 'absolute', top: 4, right: 4, bgcolor: 'background.paper', borderRadius: 1 }}>
                      <CopyButton value={snippet} label={t('gateway.copyExample', { language: lang })} />
                    </Box>
                    <Box
                      component="pre"
                      sx={{
                        m: 0,
                        p: 1.5,
                        pr: 6,
                        // Long lines wrap rather than scroll (no scroll region to reach by keyboard); the
                        // copy button copies the lines as they are.
                        whiteSpace: 'pre-wrap',
                        overflowWrap: 'anywhere',
                        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
                        fontSize: 13,
                        lineHeight: 1.5,
                        bgcolor: 'action.hover',
                      }}
                    >
                      {snippet}
                    </Box>
                  </>
                ) : null}
              </Box>
            );
          })}
          <Typography variant="body2" color="text.secondary" sx={{ px: 1.5, py: 1 }}>
            {t(`gateway.hint.${language}`)}
          </Typography>
        </Box>
      ) : null}
    </Box>
  );
}
