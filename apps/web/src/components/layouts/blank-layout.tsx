import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import { Outlet } from 'react-router';
import { Logo } from '../logo.tsx';

/** /terms-conditions, /user-details, /mfa-setup: logo (not a link) and the page (spec §2.1). */
export function BlankLayout() {
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Box
        component="header"
        sx={{
          px: { xs: 3, md: 4 },
          height: 64,
          display: 'flex',
          alignItems: 'center',
          borderBottom: 1,
          borderColor: 'divider',
          bgcolor: 'background.paper',
        }}
      >
        <Logo />
      </Box>
      <Container component="main" maxWidth="md" sx={{ py: 5 }}>
        <Outlet />
      </Container>
    </Box>
  );
}
