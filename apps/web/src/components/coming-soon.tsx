import ConstructionOutlinedIcon from '@mui/icons-material/ConstructionOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Page } from './page.tsx';
import { visuallyHidden } from './visually-hidden.ts';

/**
 * For areas in the user's route list whose screens arrive with later work (issue 3 §5 allows a
 * plain panel): it says so plainly instead of showing an empty or fake page.
 */
export function ComingSoonPage({ title }: { title: string }) {
  const { t } = useTranslation('common');
  return (
    <Page title={title}>
      <Card>
        <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'center', py: 4 }}>
          <ConstructionOutlinedIcon color="primary" fontSize="large" aria-hidden />
          <div>
            <Typography variant="h3">{t('comingSoon.title')}</Typography>
            <Typography color="text.secondary">{t('comingSoon.description', { area: title })}</Typography>
          </div>
        </CardContent>
      </Card>
    </Page>
  );
}

/**
 * The "Soon" mark of a menu entry whose area is not built yet. It is drawn by CSS (`::after`,
 * with an empty alternative text) so the entry's text and accessible name stay the area's name;
 * screen readers hear "Coming soon" as the entry's description instead: give the entry
 * `aria-describedby` pointing at a `ComingSoonDescription` and `data-coming-soon` with the mark.
 */
export const comingSoonMarkSx = {
  '&[data-coming-soon]::after': {
    content: 'attr(data-coming-soon) / ""',
    order: 0,
    ml: 1,
    px: 0.75,
    py: 0.125,
    flexShrink: 0,
    border: 1,
    borderColor: 'divider',
    borderRadius: 2,
    color: 'text.secondary',
    fontSize: 11,
    fontWeight: 600,
    lineHeight: 1.5,
    letterSpacing: '0.02em',
  },
} as const;

/** The description the coming-soon entries of a menu point at (hidden: the mark shows it). */
export function ComingSoonDescription({ id, component = 'span' }: { id: string; component?: 'span' | 'li' }) {
  const { t } = useTranslation('common');
  return (
    <Box component={component} id={id} {...(component === 'li' ? { role: 'none' } : {})} sx={visuallyHidden}>
      {t('comingSoon.title')}
    </Box>
  );
}
