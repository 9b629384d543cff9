/** Per-field messages of a 422, keyed by the request's own field names. */
export type FieldErrors = Record<string, string[]>;

/** Every failed request surfaces as one of these: the HTTP status (0 when the service was not reached), a sentence, and field errors on 422. */
export class ApiError extends Error {
  readonly status: number;
  readonly fieldErrors: FieldErrors;
  /** Seconds to wait before retrying, from `Retry-After` on a 429. */
  readonly retryAfter: number | null;
  /** The request's id (`X-Request-Id`): an operator finds its log line by it. */
  readonly requestId: string | null;

  constructor(status: number, message: string, fieldErrors: FieldErrors = {}, retryAfter: number | null = null, requestId: string | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fieldErrors = fieldErrors;
    this.retryAfter = retryAfter;
    this.requestId = requestId;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

const FALLBACK_MESSAGES: Record<number, string> = {
  401: 'Your session has ended. Please sign in again.',
  403: 'You are not allowed to do that.',
  404: 'It was not found. It may have been deleted.',
  409: 'It changed in the meantime. Reload and try again.',
  413: 'The request is too large.',
  422: 'The given data was invalid.',
  423: 'It is locked and cannot be changed now.',
  429: 'Too many requests. Please wait a moment and try again.',
};

function fieldErrorsOf(value: unknown): FieldErrors {
  if (typeof value !== 'object' || value === null) return {};
  const fieldErrors: FieldErrors = {};
  for (const [field, messages] of Object.entries(value)) {
    if (Array.isArray(messages)) fieldErrors[field] = messages.filter((m): m is string => typeof m === 'string');
  }
  return fieldErrors;
}

/** Maps the house error body `{error:{code,message,errors}}` (or anything else a proxy may send) into an ApiError. */
export function toApiError(body: unknown, response: Response | undefined): ApiError {
  if (!response) return new ApiError(0, 'The service could not be reached. Check your connection and try again.');
  const retryAfterHeader = Number(response.headers.get('Retry-After'));
  const retryAfter = Number.isFinite(retryAfterHeader) && retryAfterHeader > 0 ? retryAfterHeader : null;
  const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  const details = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const fallback = FALLBACK_MESSAGES[response.status] ?? `The service answered with an error (${response.status}).`;
  const message = typeof details.message === 'string' && details.message ? details.message : fallback;
  const requestId = typeof details.request_id === 'string' ? details.request_id : response.headers.get('X-Request-Id');
  return new ApiError(response.status, message, fieldErrorsOf(details.errors), retryAfter, requestId);
}

/** A sentence to show a person, whatever was thrown. */
export function describeError(error: unknown): string {
  if (isApiError(error)) {
    if (error.status === 429 && error.retryAfter) return `${error.message} Try again in ${error.retryAfter} seconds.`;
    // A fault of the service: the reference lets whoever runs Herald find what happened in its log.
    if (error.status >= 500 && error.requestId) return `${error.message} (reference ${error.requestId})`;
    return error.message;
  }
  return 'Something went wrong. Please try again.';
}
