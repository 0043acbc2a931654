import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { ThemeProvider } from '@mui/material/styles';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { theme } from '../../../theme.ts';
import { ALL_CATEGORIES, COOKIE_CATEGORIES, type CookieCategory, type CookieCategoryName } from './cookie-consent.ts';

const CATEGORY_NAMES = Object.keys(COOKIE_CATEGORIES) as CookieCategoryName[];

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
 * The cookie banner's "Manage choices" dialog: one switch per category of spec §9, necessary
 * always on. Loaded when first opened (cookie-banner.tsx), with the theme it needs: the banner
 * may be showing before the signed-in frame and its theme have loaded.
 */
export function CookieDialog({
  isOpen,
  initial = [COOKIE_CATEGORIES.necessary],
  onClose,
  onChoose,
}: {
  isOpen: boolean;
  /** The switches' first positions: the stored choice when the visitor changes it later. */
  initial?: CookieCategory[];
  onClose: () => void;
  onChoose: (categories: CookieCategory[]) => void;
}) {
  const { t } = useTranslation('layout');
  const [selected, setSelected] = useState<CookieCategory[]>(initial);
  const titleId = useId();
  return (
    <ThemeProvider theme={theme}>
      <Dialog open={isOpen} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
        <DialogTitle id={titleId}>{t('cookies.dialogTitle')}</DialogTitle>
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
          <Button onClick={() => onChoose(ALL_CATEGORIES)}>{t('cookies.acceptAll')}</Button>
          <Button variant="contained" onClick={() => onChoose(selected)}>
            {t('cookies.save')}
          </Button>
        </DialogActions>
      </Dialog>
    </ThemeProvider>
  );
}
