import ConstructionOutlinedIcon from '@mui/icons-material/ConstructionOutlined';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Page } from './page.tsx';

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
