import Box from '@mui/material/Box';

/** A cell's text, cut with an ellipsis when the column is narrow (the whole text in its title). */
export function Ellipsis({ text, isSecondary = false }: { text: string; isSecondary?: boolean }) {
  return (
    <Box
      component="span"
      title={text}
      sx={{
        display: 'block',
        overflow: 'hidden',
        textOverflow: 'ellipsis',
        whiteSpace: 'nowrap',
        ...(isSecondary ? { color: 'text.secondary', fontSize: 13 } : {}),
      }}
    >
      {text}
    </Box>
  );
}

/** Two lines in a cell: the main text over a secondary one (left out when there is none). */
export function TwoLines({ main, secondary }: { main: string; secondary: string | null }) {
  return (
    <Box sx={{ minWidth: 0, lineHeight: 1.3 }}>
      <Ellipsis text={main} />
      {secondary ? <Ellipsis text={secondary} isSecondary /> : null}
    </Box>
  );
}
