import { useTranslation } from 'react-i18next';
import { ComingSoonPage } from '../components/coming-soon.tsx';

export function ComingSoonRoute({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('common');
  return <ComingSoonPage title={t(titleKey)} />;
}
