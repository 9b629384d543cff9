import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long an e-mailed report link works. */
export const REPORT_LINK_DAYS = 7;

/**
 * Signed download links: the job and the expiry, signed with the service's secret key (HMAC-SHA256),
 * so a link needs no API token and cannot be altered or made up.
 */
export function createReportLinks(options: { secretKey: Buffer; publicUrl: string }) {
  const signatureOf = (jobUuid: string, expires: number) =>
    createHmac('sha256', options.secretKey).update(`report-download\n${jobUuid.toLowerCase()}\n${expires}`).digest('base64url');

  return {
    /** The link on `publicUrl` (the API's that received the request), by default this process's. */
    url(jobUuid: string, expiresAt: Date, publicUrl = options.publicUrl): string {
      const expires = Math.floor(expiresAt.getTime() / 1000);
      return `${publicUrl.replace(/\/+$/, '')}/api/2.0/report-downloads/${jobUuid}?expires=${expires}&signature=${signatureOf(jobUuid, expires)}`;
    },

    /** `valid`, `forged` (signature does not match) or `expired`. */
    check(jobUuid: string, expires: string, signature: string, now: Date): 'valid' | 'forged' | 'expired' {
      if (!/^\d{1,12}$/.test(expires)) return 'forged';
      const expected = Buffer.from(signatureOf(jobUuid, Number(expires)));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forged';
      return Number(expires) * 1000 <= now.getTime() ? 'expired' : 'valid';
    },
  };
}
export type ReportLinks = ReturnType<typeof createReportLinks>;
