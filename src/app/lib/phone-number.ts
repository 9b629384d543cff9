/** The API gives numbers as E.164 digits without `+`; people read them with it (a sender name stays as it is). */
export function formatPhoneNumber(digits: string): string {
  return /^\d+$/.test(digits) ? `+${digits}` : digits;
}
