import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, csvRow } from './csv';

describe('report CSV cells', () => {
  it('neutralises what a spreadsheet would run as a formula, but leaves a plain +digits phone number', () => {
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+1+2')).toBe("'+1+2");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('\rcmd')).toBe('"\'\rcmd"');
    expect(csvCell('+447700900123')).toBe('+447700900123');
    expect(csvCell('447700900123')).toBe('447700900123');
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('quotes cells with a comma, a quote or a line break (RFC 4180), and leaves numbers and empties plain', () => {
    expect(csvCell('Hull, East Riding')).toBe('"Hull, East Riding"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(null)).toBe('');
    expect(csvCell('')).toBe('');
  });

  it('writes lines ending in CRLF, from a list or from a row by column order', () => {
    expect(csvLine(['a', 'b,c', null])).toBe('a,"b,c",\r\n');
    expect(csvRow({ B: 'second', A: 'first', C: null }, ['A', 'B', 'C'])).toBe('first,second,\r\n');
  });
});
