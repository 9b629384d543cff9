type LoggableRequest = { id: string; method: string; url: string; host?: string; ip?: string };

/**
 * How a request appears in the log (Fastify's usual fields): the URL with the signature of a signed
 * link (report downloads), the secret of an invitation link and the number in a contact's address
 * (`/contacts/{phone_number}`) blanked, so the log never holds a
 * credential, nor the number of a contact being erased. API tokens travel in a header, which is not logged at all.
 */
export function loggedRequest(request: LoggableRequest) {
  return {
    id: request.id,
    method: request.method,
    url: request.url
      .replace(/([?&]signature=)[^&#]*/gi, '$1[redacted]')
      .replace(/^(\/api\/2\.0\/invitations\/)[^/?#]+/, '$1[redacted]')
      // A contact's own address names the number: an erasure must not leave it in the log.
      .replace(/^(\/api\/2\.0\/contacts\/)[^/?#]+/, '$1[redacted]'),
    host: request.host,
    remoteAddress: request.ip,
  };
}
