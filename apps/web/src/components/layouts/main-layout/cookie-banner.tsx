import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  COOKIE_CATEGORIES,
  readConsent,
  writeConsent,
  type CookieCategory,
  type CookieCategoryName,
} from './cookie-consent.ts';
import { CONTENT_MAX_WIDTH } from './layout-constants.ts';

const CATEGORY_NAMES = Object.keys(COOKIE_CATEGORIES) as CookieCategoryName[];
const ALL_CATEGORIES = Object.values(COOKIE_CATEGORIES) as CookieCategory[];

function CategorySwitch({
  name,
  isChecked,
  isLocked,
  onChange,
}: {
  name: CookieCategoryName;
  isChecked: boolean;
  isLocked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const { t } = useTranslation('layout');
  const labelId = useId();
  const descriptionId = useId();
  return (
    <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', py: 1.5, borderTop: 1, borderColor: 'divider' }}>
      <Box sx={{ flexGrow: 1 }}>
        <Typography id={labelId} sx={{ fontWeight: 600, fontSize: 14 }}>
          {t(`cookies.categories.${name}.title`)}
          {isLocked ? (
            <Typography component="span" sx={{ ml: 1, fontSize: 12, color: 'text.secondary', fontWeight: 500 }}>
              {t('cookies.alwaysOn')}
            </Typography>
          ) : null}
        </Typography>
        <Typography id={descriptionId} variant="body2" color="text.secondary">
          {t(`cookies.categories.${name}.description`)}
        </Typography>
      </Box>
      <Switch
        checked={isChecked}
        disabled={isLocked}
        onChange={(_event, checked) => onChange(checked)}
        slotProps={{ input: { 'aria-labelledby': labelId, 'aria-describedby': descriptionId } }}
      />
    </Box>
  );
}

/**
 * The cookie banner (spec §2.2, categories of §9): a bar at the bottom edge of the content column
 * that never covers the page for good (the main layout places it after the footer). It stays until
 * the visitor chooses: accept all, necessary only, or pick categories in a dialog. The choice is remembered in the
 * `cookie_consent` cookie for a year (see cookie-consent.ts).
 */
export function CookieBanner() {
  const { t } = useTranslation('layout');
  const [consent, setConsent] = useState(() => readConsent());
  const [isDialogOpen, setIsDialogOpen] = useState(false);
  const [selected, setSelected] = useState<CookieCategory[]>([COOKIE_CATEGORIES.necessary]);
  const titleId = useId();
  const dialogTitleId = useId();

  if (consent) return null;

  const choose = (categories: CookieCategory[]) => {
    setIsDialogOpen(false);
    setConsent(writeConsent(categories));
  };

  return (
    <>
      <Paper
        component="section"
        aria-labelledby={titleId}
        square
        elevation={0}
        sx={{
          // A bar along the bottom edge of the content column, in the page's flow: it stays in view
          // while the page scrolls, and its own height is kept free after the footer, so the last
          // of the page can always be scrolled above it and nothing stays covered.
          position: 'sticky',
          bottom: 0,
          px: { xs: 2, sm: 3, md: 4 },
          py: 1.5,
          // The bottom-right corner stays free for the back-to-top button (it floats above the bar).
          pr: { xs: 9, sm: 11 },
          borderTop: 1,
          borderColor: 'divider',
          bgcolor: 'background.paper',
          boxShadow: '0 -2px 8px rgba(20, 27, 45, 0.06)',
          // Above the page's content, below the back-to-top button, the top bar, menus and dialogs.
          zIndex: (theme) => theme.zIndex.mobileStepper,
        }}
      >
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={{ xs: 1, md: 3 }}
          sx={{ alignItems: { md: 'center' }, maxWidth: CONTENT_MAX_WIDTH, mx: 'auto' }}
        >
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography id={titleId} component="h2" sx={{ fontWeight: 600, fontSize: 14 }}>
              {t('cookies.title')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('cookies.description')}
            </Typography>
          </Box>
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', flexShrink: 0 }}>
            <Button variant="contained" size="small" onClick={() => choose(ALL_CATEGORIES)}>
              {t('cookies.acceptAll')}
            </Button>
            <Button variant="outlined" size="small" onClick={() => choose([COOKIE_CATEGORIES.necessary])}>
              {t('cookies.necessaryOnly')}
            </Button>
            <Button variant="text" size="small" aria-haspopup="dialog" onClick={() => setIsDialogOpen(true)}>
              {t('cookies.manage')}
            </Button>
          </Stack>
        </Stack>
      </Paper>
      <Dialog
        open={isDialogOpen}
        onClose={() => setIsDialogOpen(false)}
        aria-labelledby={dialogTitleId}
        fullWidth
        maxWidth="sm"
      >
        <DialogTitle id={dialogTitleId}>{t('cookies.dialogTitle')}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            {t('cookies.dialogDescription')}
          </Typography>
          {CATEGORY_NAMES.map((name) => {
            const category = COOKIE_CATEGORIES[name];
            const isLocked = category === COOKIE_CATEGORIES.necessary;
            return (
              <CategorySwitch
                key={name}
                name={name}
                isLocked={isLocked}
                isChecked={isLocked || selected.includes(category)}
                onChange={(checked) =>
                  setSelected((current) =>
                    checked ? [...current, category] : current.filter((item) => item !== category),
                  )
                }
              />
            );
          })}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={() => choose(ALL_CATEGORIES)}>{t('cookies.acceptAll')}</Button>
          <Button variant="contained" onClick={() => choose(selected)}>
            {t('cookies.save')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
