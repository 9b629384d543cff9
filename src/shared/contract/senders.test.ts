import { describe, expect, it } from 'vitest';
import { SenderInputSchema } from './senders';

const errorsOf = (sender: unknown) => {
  const result = SenderInputSchema.safeParse({ sender });
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe('the sender rule (shared by the service and the dashboard form)', () => {
  it('accepts 3 to 11 letters, digits, spaces and . - _ &', () => {
    for (const sender of ['ABC', '88440', 'Acme Shop', 'A.B-C_D&E', 'ABCDEFGHIJK']) expect(errorsOf(sender)).toEqual([]);
  });

  it('trims before counting', () => {
    expect(SenderInputSchema.parse({ sender: '  Herald  ' })).toEqual({ sender: 'Herald' });
    expect(errorsOf('  AB  ')).toEqual(['The sender must be between 3 and 11 characters.']);
  });

  it('names the length rule and the character rule', () => {
    expect(errorsOf('AB')).toEqual(['The sender must be between 3 and 11 characters.']);
    expect(errorsOf('ABCDEFGHIJKL')).toEqual(['The sender must be between 3 and 11 characters.']);
    expect(errorsOf('Café')).toEqual(['The sender may only contain letters, digits, spaces and . - _ &.']);
    expect(errorsOf(undefined)).toEqual(['The sender field is required.']);
    expect(errorsOf(42)).toEqual(['The sender must be a string.']);
  });
});
