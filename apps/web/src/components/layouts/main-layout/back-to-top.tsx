import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import Fab from '@mui/material/Fab';
import Zoom from '@mui/material/Zoom';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@connect/shared';
import { MAIN_CONTENT_ID } from './layout-constants.ts';

/** True once the window is scrolled more than `px` down. */
function useIsScrolledPast(px: number): boolean {
  const [isPast, setIsPast] = useState(() => window.scrollY > px);
  useEffect(() => {
    const update = () => setIsPast(window.scrollY > px);
    // Not read again here: the first render read it, and reading it right after the frame's first
    // commit forced the layout of the whole new page inside that commit's task (25 ms of a 147 ms
    // long task on /dashboard, issue 30). Scrolling from here on updates it.
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, [px]);
  return isPast;
}

/**
 * Spec §2.2/§9: a back-to-top button once the page is scrolled more than 64 px. It scrolls
 * smoothly (instantly for people who ask for reduced motion) and moves keyboard focus to the top
 * of the content, since the button itself disappears.
 */
export function BackToTop() {
  const { t } = useTranslation('layout');
  const isShown = useIsScrolledPast(LIMITS.backToTopPx);

  const handleClick = () => {
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    window.scrollTo({ top: 0, behavior: reduceMotion ? 'auto' : 'smooth' });
    document.getElementById(MAIN_CONTENT_ID)?.focus({ preventScroll: true });
  };

  return (
    <Zoom in={isShown} unmountOnExit>
      <Fab
        size="small"
        color="primary"
        aria-label={t('backToTop')}
        onClick={handleClick}
        sx={{ position: 'fixed', right: { xs: 16, sm: 24 }, bottom: { xs: 16, sm: 24 }, boxShadow: 2 }}
      >
        <KeyboardArrowUpIcon />
      </Fab>
    </Zoom>
  );
}
