/**
 * Domain errors: services throw these, the HTTP layer maps them to statuses
 * (http/errors.ts), so no service knows about HTTP.
 */
export class DomainError extends Error {}

export class NotFoundError extends DomainError {
  constructor(message = 'The requested resource was not found.') {
    super(message);
  }
}

/** A request that is well-formed but breaks a rule; `fields` is keyed by the request's own field names. */
export class ValidationError extends DomainError {
  constructor(
    readonly fields: Record<string, string[]>,
    message = 'The given data was invalid.',
  ) {
    super(message);
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }

  /** From schema issues (zod's shape): messages keyed by the dotted field path. */
  static fromIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): ValidationError {
    const fields: Record<string, string[]> = {};
    for (const issue of issues) (fields[issue.path.map(String).join('.') || 'body'] ??= []).push(issue.message);
    return new ValidationError(fields);
  }
}

export class ConflictError extends DomainError {}
export class LockedError extends DomainError {}

export class UnauthenticatedError extends DomainError {
  constructor(message = 'Unauthenticated.') {
    super(message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = 'This action is unauthorized.') {
    super(message);
  }
}

/** A service Herald called on the caller's behalf failed or could not be reached (an SMS provider down): 502, not Herald's own fault. */
export class BadGatewayError extends DomainError {}

/** Something that existed and is gone for good (an expired download link). */
export class GoneError extends DomainError {}

export class TooManyRequestsError extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    message = 'Too many requests. Try again later.',
  ) {
    super(message);
  }
}

/** Why a template (or one of its links) cannot be changed: a campaign using it is sending. Said by both the templates and the links endpoints. */
export const TEMPLATE_LOCKED = 'The template is used by a campaign that is sending; it cannot be changed until the campaign has finished.';
