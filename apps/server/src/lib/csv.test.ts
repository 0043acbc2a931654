import { describe, expect, it } from 'vitest';
import { readCsv } from './csv-testing.ts';
import { spreadsheetSafe, toCsv } from './csv.ts';

describe('CSV files for spreadsheets', () => {
  it('never lets a text cell start a formula: = + - @ tab and CR get a leading apostrophe', () => {
    for (const text of ['=HYPERLINK("http://evil","x")', '+1+1', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd']) {
      expect(spreadsheetSafe(text)).toBe(`'${text}`);
    }
    for (const text of ['My app', "'quoted", ' =not at the start', '', 'eth_call']) {
      expect(spreadsheetSafe(text)).toBe(text);
    }
  });

  it('quotes commas, quotes and line breaks, writes numbers as they are, and reads back cell for cell', () => {
    const text = toCsv(
      ['Application', 'Calls', 'Credits'],
      [
        ['Shop, "live"\nedition', 3, 0.0003],
        ['=cmd|"/c calc"!A0', 1, -0.5],
        [null, 0, 0],
      ],
    );
    expect(text.startsWith('\uFEFFApplication,Calls,Credits\r\n')).toBe(true);
    expect(text).toContain('"Shop, ""live""\nedition",3,0.0003\r\n');
    // Escaped first, then quoted: the apostrophe is inside the quotes; the refund's minus stays a number.
    expect(text).toContain(`"'=cmd|""/c calc""!A0",1,-0.5\r\n`);
    expect(readCsv(text)).toEqual([
      ['Application', 'Calls', 'Credits'],
      ['Shop, "live"\nedition', '3', '0.0003'],
      ['\'=cmd|"/c calc"!A0', '1', '-0.5'],
      ['', '0', '0'],
    ]);
  });
});
