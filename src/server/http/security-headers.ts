import type { FastifyInstance } from 'fastify';

// The dashboard and the API reference load only their own files; Mantine sets inline styles. The
// dashboard talks to its own service only: its "service URL and token" mode reaches another Herald
// when that one is named in DASHBOARD_CONNECT_SRC (the origins it may call, space-separated).
const policyWith = (connectSources: string) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self'${connectSources ? ` ${connectSources}` : ''}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');

export function registerSecurityHeaders(app: FastifyInstance, options: { connectSources?: string } = {}): void {
  const CONTENT_SECURITY_POLICY = policyWith(options.connectSources ?? '');
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    // A page with a stricter policy of its own keeps it (the hosted sign-up page allows no script at all).
    if (!reply.hasHeader('Content-Security-Policy')) reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    if (request.url.startsWith('/api/2.0/')) reply.header('Cache-Control', 'no-store');
    // Over https only (TLS here, or X-Forwarded-Proto from a proxy TRUST_PROXY trusts): browsers then refuse plain http to this host for a year.
    if (request.protocol === 'https') reply.header('Strict-Transport-Security', 'max-age=31536000');
    return payload;
  });
}
