/** The API stores E.164 digits without `+`; people read them with it. */
export function formatPhoneNumber(digits: string): string {
  return /^\d+$/.test(digits) ? `+${digits}` : digits;
}
