import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { TContentUpdate } from '@connect/shared';
import { formatDate } from '../../../lib/format.ts';
import { ContentLink } from './content-link.tsx';

/** Updates as a plain list (the News card's earlier ones): every headline at a glance, each linking to its area. */
export function NewsList({ updates }: { updates: TContentUpdate[] }) {
  return (
    <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {updates.map((update, i) => (
        <Box
          component="li"
          key={update.id}
          sx={{ py: 1.5, borderTop: i === 0 ? 0 : 1, borderColor: 'divider', '&:first-of-type': { pt: 0 } }}
        >
          <Typography variant="caption" color="text.secondary" component="p">
            <time dateTime={update.publishedAt}>{formatDate(update.publishedAt)}</time>
          </Typography>
          <Typography variant="body1" component="h3" sx={{ fontWeight: 600 }}>
            {update.linkUrl ? (
              <ContentLink url={update.linkUrl} color="inherit">
                {update.title}
              </ContentLink>
            ) : (
              update.title
            )}
          </Typography>
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{
              mt: 0.25,
              display: '-webkit-box',
              WebkitLineClamp: 2,
              WebkitBoxOrient: 'vertical',
              overflow: 'hidden',
            }}
          >
            {update.description}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
