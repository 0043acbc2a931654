import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TContentUpdate } from '@connect/shared';
import { formatDate } from '../../../lib/format.ts';
import { ContentLink } from './content-link.tsx';

/** Never faster than 6 s a slide (the brief); 8 s leaves time to read a two-line description. */
export const ROTATION_MS = 8000;

/**
 * The latest updates as a carousel, following the WAI-ARIA carousel pattern: a rotation control,
 * previous/next buttons and one dot per slide; rotation stops while the pointer or keyboard focus
 * is inside, once the user pauses it, and entirely when the system asks for reduced motion.
 * It is a group named by the heading of the section it sits in (`labelledBy`).
 * While it rotates the slides are not announced; once stopped, a changed slide is.
 */
export function UpdatesCarousel({ updates, labelledBy }: { updates: TContentUpdate[]; labelledBy: string }) {
  const { t } = useTranslation('account');
  const prefersReducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)', { noSsr: true });
  const [index, setIndex] = useState(0);
  const [isPausedByUser, setIsPausedByUser] = useState(false);
  const [hasFocus, setHasFocus] = useState(false);
  const [isHovered, setIsHovered] = useState(false);
  const count = updates.length;
  const canRotate = count > 1 && !prefersReducedMotion;
  const isRotating = canRotate && !isPausedByUser && !hasFocus && !isHovered;

  useEffect(() => {
    if (!isRotating) return;
    const timer = setInterval(() => setIndex((current) => (current + 1) % count), ROTATION_MS);
    return () => clearInterval(timer);
  }, [isRotating, count]);

  const current = Math.min(index, count - 1);
  const show = (next: number) => setIndex((next + count) % count);

  return (
    <Box
      role="group"
      aria-roledescription={t('dashboard.carousel.roleDescription')}
      aria-labelledby={labelledBy}
      onFocus={() => setHasFocus(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setHasFocus(false);
      }}
      onMouseEnter={() => setIsHovered(true)}
      onMouseLeave={() => setIsHovered(false)}
    >
      <Box aria-live={isRotating ? 'off' : 'polite'} sx={{ minHeight: 168 }}>
        {updates.map((update, i) => (
          <Box
            key={update.id}
            role="group"
            aria-roledescription={t('dashboard.carousel.slide')}
            aria-label={t('dashboard.carousel.slideLabel', { index: i + 1, count })}
            hidden={i !== current}
            sx={{
              display: i === current ? 'flex' : 'none',
              gap: 2.5,
              alignItems: 'flex-start',
              '@media (prefers-reduced-motion: no-preference)': { animation: 'updates-fade 300ms ease-out' },
              '@keyframes updates-fade': { from: { opacity: 0 }, to: { opacity: 1 } },
            }}
          >
            {update.imageUrl ? (
              <Box
                component="img"
                src={update.imageUrl}
                alt=""
                sx={{
                  width: 160,
                  height: 120,
                  objectFit: 'cover',
                  borderRadius: 1,
                  display: { xs: 'none', sm: 'block' },
                  flexShrink: 0,
                }}
              />
            ) : null}
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="caption" color="text.secondary">
                {formatDate(update.publishedAt)}
              </Typography>
              <Typography variant="h3" component="h3" sx={{ mt: 0.25 }}>
                {update.title}
              </Typography>
              <Typography color="text.secondary" sx={{ mt: 1 }}>
                {update.description}
              </Typography>
              {update.linkUrl ? (
                <ContentLink
                  url={update.linkUrl}
                  aria-label={t('dashboard.carousel.readMoreAbout', { title: update.title })}
                  sx={{ display: 'inline-block', mt: 1.5, fontWeight: 600 }}
                >
                  {t('dashboard.carousel.readMore')}
                </ContentLink>
              ) : null}
            </Box>
          </Box>
        ))}
      </Box>

      {count > 1 ? (
        <Stack direction="row" spacing={1} sx={{ mt: 2, alignItems: 'center' }}>
          {canRotate ? (
            <IconButton
              size="small"
              onClick={() => setIsPausedByUser((paused) => !paused)}
              aria-label={isPausedByUser ? t('dashboard.carousel.play') : t('dashboard.carousel.pause')}
            >
              {isPausedByUser ? <PlayArrowIcon fontSize="small" /> : <PauseIcon fontSize="small" />}
            </IconButton>
          ) : null}
          <IconButton size="small" onClick={() => show(current - 1)} aria-label={t('dashboard.carousel.previous')}>
            <ChevronLeftIcon fontSize="small" />
          </IconButton>
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
            {updates.map((update, i) => (
              <Box
                key={update.id}
                component="button"
                type="button"
                onClick={() => show(i)}
                aria-label={t('dashboard.carousel.goTo', { index: i + 1, title: update.title })}
                aria-current={i === current ? 'true' : undefined}
                sx={{
                  width: 24,
                  height: 24,
                  p: 0,
                  border: 0,
                  bgcolor: 'transparent',
                  cursor: 'pointer',
                  display: 'grid',
                  placeItems: 'center',
                  borderRadius: '50%',
                  '&::after': {
                    content: '""',
                    width: 10,
                    height: 10,
                    borderRadius: '50%',
                    border: 2,
                    borderColor: 'primary.main',
                    bgcolor: i === current ? 'primary.main' : 'transparent',
                  },
                  '&:focus-visible': {
                    outline: 2,
                    outlineColor: 'primary.main',
                    outlineStyle: 'solid',
                    outlineOffset: 1,
                  },
                }}
              />
            ))}
          </Stack>
          <IconButton size="small" onClick={() => show(current + 1)} aria-label={t('dashboard.carousel.next')}>
            <ChevronRightIcon fontSize="small" />
          </IconButton>
        </Stack>
      ) : null}
    </Box>
  );
}
