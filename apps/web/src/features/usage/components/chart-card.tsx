import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';
import { visuallyHidden } from '../../../components/visually-hidden.ts';

export type ChartTable = { columns: string[]; rows: { key: string; cells: string[] }[] };

/**
 * A chart in its card: the question it answers as its title, one line on what it shows, the chart
 * as a figure named by the title, and the same data as a table for screen readers (the chart's
 * own drawing is hidden from them; its keyboard navigation and tooltips stay for sighted users).
 */
export function ChartCard({
  title,
  description,
  table,
  children,
}: {
  title: string;
  description: string;
  /** Absent while the chart has no data of its own to give (loading, error, empty). */
  table?: ChartTable;
  children: ReactNode;
}) {
  const titleId = useId();
  const descriptionId = useId();
  return (
    <Card component="section" aria-labelledby={titleId} sx={{ height: '100%' }}>
      <CardContent sx={{ p: 3, '&:last-child': { pb: 3 } }}>
        <Typography id={titleId} variant="h3" component="h2">
          {title}
        </Typography>
        <Typography id={descriptionId} variant="body2" color="text.secondary" sx={{ mt: 0.5, mb: 2 }}>
          {description}
        </Typography>
        <Box component="figure" aria-labelledby={titleId} aria-describedby={descriptionId} sx={{ m: 0 }}>
          {children}
          {table ? (
            <Box component="table" sx={visuallyHidden}>
              <caption>{title}</caption>
              <thead>
                <tr>
                  {table.columns.map((column) => (
                    <th key={column} scope="col">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((row) => (
                  <tr key={row.key}>
                    {row.cells.map((cell, index) =>
                      index === 0 ? (
                        <th key={index} scope="row">
                          {cell}
                        </th>
                      ) : (
                        <td key={index}>{cell}</td>
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </Box>
          ) : null}
        </Box>
      </CardContent>
    </Card>
  );
}
