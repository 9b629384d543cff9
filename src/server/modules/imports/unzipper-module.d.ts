/** The part of `unzipper@0.10.14` (exceljs's zip reader, no bundled types) that workbook-limits.ts uses. */
declare module 'unzipper' {
  import type { Writable } from 'node:stream';
  const unzipper: { Parse(options?: { forceStream?: boolean }): Writable };
  export default unzipper;
}
