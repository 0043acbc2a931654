import AppsOutlinedIcon from '@mui/icons-material/AppsOutlined';
import BiotechOutlinedIcon from '@mui/icons-material/BiotechOutlined';
import BusinessOutlinedIcon from '@mui/icons-material/BusinessOutlined';
import CampaignOutlinedIcon from '@mui/icons-material/CampaignOutlined';
import CircleOutlinedIcon from '@mui/icons-material/CircleOutlined';
import DashboardOutlinedIcon from '@mui/icons-material/DashboardOutlined';
import FactCheckOutlinedIcon from '@mui/icons-material/FactCheckOutlined';
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined';
import GroupOutlinedIcon from '@mui/icons-material/GroupOutlined';
import HistoryOutlinedIcon from '@mui/icons-material/HistoryOutlined';
import HubOutlinedIcon from '@mui/icons-material/HubOutlined';
import LayersOutlinedIcon from '@mui/icons-material/LayersOutlined';
import MenuBookOutlinedIcon from '@mui/icons-material/MenuBookOutlined';
import PaidOutlinedIcon from '@mui/icons-material/PaidOutlined';
import QueryStatsOutlinedIcon from '@mui/icons-material/QueryStatsOutlined';
import RedeemOutlinedIcon from '@mui/icons-material/RedeemOutlined';
import ScienceOutlinedIcon from '@mui/icons-material/ScienceOutlined';
import SellOutlinedIcon from '@mui/icons-material/SellOutlined';
import SettingsApplicationsOutlinedIcon from '@mui/icons-material/SettingsApplicationsOutlined';
import TokenOutlinedIcon from '@mui/icons-material/TokenOutlined';
import VerifiedUserOutlinedIcon from '@mui/icons-material/VerifiedUserOutlined';

export type MenuIcon = typeof CircleOutlinedIcon;

/**
 * The one map from the route catalogue's icon names (Material Symbols style, see
 * packages/shared/src/routes.ts) to icons. Each icon is imported on its own so the bundle carries
 * only these. A new catalogue icon shows the neutral fallback until it is added here.
 */
export const MENU_ICONS: Readonly<Record<string, MenuIcon>> = {
  science: ScienceOutlinedIcon,
  dashboard: DashboardOutlinedIcon,
  verified_user: VerifiedUserOutlinedIcon,
  token: TokenOutlinedIcon,
  apps: AppsOutlinedIcon,
  hub: HubOutlinedIcon,
  query_stats: QueryStatsOutlinedIcon,
  layers: LayersOutlinedIcon,
  redeem: RedeemOutlinedIcon,
  menu_book: MenuBookOutlinedIcon,
  group: GroupOutlinedIcon,
  business: BusinessOutlinedIcon,
  settings_applications: SettingsApplicationsOutlinedIcon,
  fact_check: FactCheckOutlinedIcon,
  receipt_long: ReceiptLongOutlinedIcon,
  sell: SellOutlinedIcon,
  campaign: CampaignOutlinedIcon,
  paid: PaidOutlinedIcon,
  history: HistoryOutlinedIcon,
  biotech: BiotechOutlinedIcon,
};

export function menuIconFor(name: string | undefined): MenuIcon {
  return (name && MENU_ICONS[name]) || CircleOutlinedIcon;
}
