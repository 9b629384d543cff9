/**
 * How an answer shows a secret after it was written (webhook headers, SMS connection credentials):
 * the mask, and the last 4 characters when the secret has 12 or more, so a short one is never half
 * shown. One rule, so a form that sends back what it read is recognised everywhere alike.
 */
export const SECRET_MASK = '********';
/** Secrets at least this long show their last 4 characters; shorter ones show none. */
const SHOWN_FROM = 12;

export const maskedSecret = (plain: string): string => (plain.length >= SHOWN_FROM ? `${SECRET_MASK}${plain.slice(-4)}` : SECRET_MASK);
