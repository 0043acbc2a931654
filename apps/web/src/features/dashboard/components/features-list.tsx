import AccountBalanceWalletOutlinedIcon from '@mui/icons-material/AccountBalanceWalletOutlined';
import AppsOutlinedIcon from '@mui/icons-material/AppsOutlined';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import DashboardOutlinedIcon from '@mui/icons-material/DashboardOutlined';
import ExtensionOutlinedIcon from '@mui/icons-material/ExtensionOutlined';
import HubOutlinedIcon from '@mui/icons-material/HubOutlined';
import LayersOutlinedIcon from '@mui/icons-material/LayersOutlined';
import RedeemOutlinedIcon from '@mui/icons-material/RedeemOutlined';
import ScienceOutlinedIcon from '@mui/icons-material/ScienceOutlined';
import SwapHorizOutlinedIcon from '@mui/icons-material/SwapHorizOutlined';
import TokenOutlinedIcon from '@mui/icons-material/TokenOutlined';
import VerifiedUserOutlinedIcon from '@mui/icons-material/VerifiedUserOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Grid from '@mui/material/Grid';
import type { SvgIconComponent } from '@mui/icons-material';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import type { TContentFeature } from '@connect/shared';
import { isExternalUrl } from './content-link.tsx';

/** The server names icons as Material Symbols do (the route catalogue uses the same names). */
const ICONS: Record<string, SvgIconComponent> = {
  apps: AppsOutlinedIcon,
  hub: HubOutlinedIcon,
  token: TokenOutlinedIcon,
  swap_horiz: SwapHorizOutlinedIcon,
  dashboard: DashboardOutlinedIcon,
  verified_user: VerifiedUserOutlinedIcon,
  layers: LayersOutlinedIcon,
  redeem: RedeemOutlinedIcon,
  science: ScienceOutlinedIcon,
  account_balance_wallet: AccountBalanceWalletOutlinedIcon,
};

function FeatureCardBody({ feature }: { feature: TContentFeature }) {
  const Icon = (feature.icon && ICONS[feature.icon]) || ExtensionOutlinedIcon;
  return (
    <Box sx={{ p: 2.5, display: 'flex', flexDirection: 'column', gap: 1, height: '100%' }}>
      <Box
        sx={{
          width: 40,
          height: 40,
          borderRadius: 1,
          display: 'grid',
          placeItems: 'center',
          bgcolor: 'action.hover',
          color: 'primary.main',
        }}
      >
        <Icon aria-hidden />
      </Box>
      <Typography variant="h4" component="h3" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        {feature.title}
        {feature.linkUrl ? <ArrowForwardIcon fontSize="inherit" color="primary" aria-hidden /> : null}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {feature.description}
      </Typography>
    </Box>
  );
}

/** The product areas as cards; each card is one link to its area. */
export function FeaturesList({ features }: { features: TContentFeature[] }) {
  return (
    <Grid container spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {features.map((feature) => (
        <Grid key={feature.id} size={{ xs: 12, sm: 6, lg: 3 }} component="li">
          <Card sx={{ height: '100%' }}>
            {feature.linkUrl ? (
              isExternalUrl(feature.linkUrl) ? (
                <CardActionArea
                  component="a"
                  href={feature.linkUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  sx={{ height: '100%' }}
                >
                  <FeatureCardBody feature={feature} />
                </CardActionArea>
              ) : (
                <CardActionArea component={RouterLink} to={feature.linkUrl} sx={{ height: '100%' }}>
                  <FeatureCardBody feature={feature} />
                </CardActionArea>
              )
            ) : (
              <FeatureCardBody feature={feature} />
            )}
          </Card>
        </Grid>
      ))}
    </Grid>
  );
}
