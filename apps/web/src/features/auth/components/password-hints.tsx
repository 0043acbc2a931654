import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PASSWORD_RULES } from '@connect/shared/light';
import { visuallyHidden } from '../../../components/visually-hidden.ts';

/**
 * The password policy of spec §5 as a checklist that ticks while the user types. The rules are
 * the shared ones the identity pool enforces; the icon's shape and the hidden "(done)" carry the
 * state too, so colour is never the only signal.
 */
export function PasswordHints({ id, password }: { id: string; password: string }) {
  const { t } = useTranslation('auth');
  return (
    <Box id={id}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
        {t('password.rulesTitle')}
      </Typography>
      <Box
        component="ul"
        sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gridTemplateColumns: { sm: '1fr 1fr' }, gap: 0.5 }}
      >
        {PASSWORD_RULES.map((rule) => {
          const isMet = rule.test(password);
          return (
            <Box
              component="li"
              key={rule.id}
              data-rule={rule.id}
              data-met={isMet}
              sx={{ display: 'flex', alignItems: 'center', gap: 1, color: isMet ? 'success.main' : 'text.secondary' }}
            >
              {isMet ? (
                <CheckCircleIcon sx={{ fontSize: 18 }} aria-hidden />
              ) : (
                <RadioButtonUncheckedIcon sx={{ fontSize: 18 }} aria-hidden />
              )}
              <Typography variant="body2" component="span" color={isMet ? 'text.primary' : 'text.secondary'}>
                {t(`password.rules.${rule.id}`)}
                <Box component="span" sx={visuallyHidden}>
                  {' '}
                  {isMet ? t('password.ruleMet') : t('password.ruleNotMet')}
                </Box>
              </Typography>
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}
