import LinkedInIcon from '@mui/icons-material/LinkedIn';
import XIcon from '@mui/icons-material/X';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { TFooter } from '@connect/shared';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { visuallyHidden } from '../../visually-hidden.ts';
import { requestCookieChoices } from './cookie-consent.ts';
import { defaultFooter, SOCIAL_LINKS } from './default-footer.ts';
import { footerHref, hasFooterContent, isExternalUrl } from './footer-links.ts';
import { footerQuery } from './footer-query.ts';
import { CONTENT_MAX_WIDTH } from './layout-constants.ts';

const SOCIAL_ICONS = { linkedin: LinkedInIcon, x: XIcon } as const;

type FooterLink = TFooter['secondaryLinks'][number];

function FooterAnchor({ link, productSlug }: { link: FooterLink; productSlug: string }) {
  const { t } = useTranslation('layout');
  const href = footerHref(link, productSlug);
  const sx = { fontSize: 14, color: 'text.secondary', '&:hover': { color: 'text.primary' } };
  if (!isExternalUrl(href)) {
    return (
      <Link component={RouterLink} to={href} sx={sx}>
        {link.title}
      </Link>
    );
  }
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer" sx={sx}>
      {link.title}{' '}
      <Box component="span" sx={visuallyHidden}>
        {t('footer.opensInNewTab')}
      </Box>
    </Link>
  );
}

const plainList = { listStyle: 'none', m: 0, p: 0 } as const;

/**
 * The footer of spec §2.2: the content service's link sections and secondary links, or the
 * built-in default when the request fails or answers without sections (spec §8), then the
 * social links and the copyright line.
 */
export function Footer() {
  const { t } = useTranslation('layout');
  const productSlug = runtimeConfig().productSlug;
  const query = useQuery(footerQuery());
  const isEmpty = query.isSuccess && !hasFooterContent(query.data);

  useEffect(() => {
    if (query.error) console.warn('The footer could not be loaded; showing the default footer.', query.error);
    else if (isEmpty) console.warn('Footer response is empty!');
  }, [query.error, isEmpty]);

  const footer = useMemo<TFooter | null>(() => {
    if (query.isSuccess && hasFooterContent(query.data)) return query.data;
    // While the request is under way nothing is shown, rather than the default flashing first.
    return query.isError || isEmpty ? defaultFooter(t) : null;
  }, [query.isSuccess, query.isError, query.data, isEmpty, t]);

  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper', mt: 6 }}>
      <Box
        // The bottom padding keeps the last row clear of the back-to-top button at the page's end.
        sx={{ maxWidth: CONTENT_MAX_WIDTH, mx: 'auto', px: { xs: 3, md: 4 }, pt: 4, pb: { xs: 10, sm: 11 } }}
      >
        {footer ? (
          <Box
            component="nav"
            aria-label={t('footer.label')}
            sx={{
              display: 'grid',
              gap: 3,
              gridTemplateColumns: {
                xs: 'repeat(2, minmax(0, 1fr))',
                sm: 'repeat(3, minmax(0, 1fr))',
                lg: 'repeat(5, minmax(0, 1fr))',
              },
              mb: 4,
            }}
          >
            {footer.sections.map((section) => (
              <Box key={section.title}>
                <Typography component="h2" sx={{ fontSize: 13, fontWeight: 600, mb: 1.5, color: 'text.primary' }}>
                  {section.title}
                </Typography>
                <Box component="ul" sx={{ ...plainList, display: 'grid', gap: 1 }}>
                  {section.links.map((link) => (
                    <li key={`${link.title}-${link.url}`}>
                      <FooterAnchor link={link} productSlug={productSlug} />
                    </li>
                  ))}
                </Box>
              </Box>
            ))}
          </Box>
        ) : null}
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'center',
            gap: 2,
            pt: footer ? 3 : 0,
            borderTop: footer ? 1 : 0,
            borderColor: 'divider',
          }}
        >
          <Typography variant="body2" color="text.secondary" sx={{ fontSize: 13 }}>
            {t('footer.copyright', { year: new Date().getFullYear() })}
          </Typography>
          {footer && footer.secondaryLinks.length > 0 ? (
            <Box component="ul" sx={{ ...plainList, display: 'flex', flexWrap: 'wrap', gap: 2 }}>
              {footer.secondaryLinks.map((link) => (
                <li key={`${link.title}-${link.url}`}>
                  <FooterAnchor link={link} productSlug={productSlug} />
                </li>
              ))}
            </Box>
          ) : null}
          {/* Changes or withdraws the cookie consent (the banner's dialog, opened again). */}
          <Link
            component="button"
            type="button"
            aria-haspopup="dialog"
            onClick={requestCookieChoices}
            sx={{ fontSize: 14, color: 'text.secondary', '&:hover': { color: 'text.primary' } }}
          >
            {t('footer.cookieSettings')}
          </Link>
          <Box
            component="ul"
            aria-label={t('footer.social.label')}
            sx={{ ...plainList, display: 'flex', gap: 0.5, ml: 'auto' }}
          >
            {SOCIAL_LINKS.map(({ network, url }) => {
              const Icon = SOCIAL_ICONS[network];
              return (
                <li key={network}>
                  <IconButton
                    component="a"
                    href={url}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`${t(`footer.social.${network}`)} ${t('footer.opensInNewTab')}`}
                    size="small"
                    sx={{ color: 'text.secondary' }}
                  >
                    <Icon fontSize="small" aria-hidden />
                  </IconButton>
                </li>
              );
            })}
          </Box>
        </Box>
      </Box>
    </Box>
  );
}
