import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** One onboarding step in the blank layout: its h1 title, a one-line description, the content. */
export function OnboardingCard({
  title,
  description,
  children,
}: {
  title: string;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card component="section" aria-labelledby="page-title">
      <CardContent sx={{ p: { xs: 3, sm: 4 }, '&:last-child': { pb: { xs: 3, sm: 4 } } }}>
        <Stack spacing={1} sx={{ mb: 3 }}>
          <Typography id="page-title" variant="h1">
            {title}
          </Typography>
          <Typography color="text.secondary">{description}</Typography>
        </Stack>
        {children}
      </CardContent>
    </Card>
  );
}
