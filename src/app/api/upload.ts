import { currentOrigin, endSession, getSession, sessionHeaders } from '../lib/session';
import { toApiError } from './api-error';
import { apiBaseUrl } from './client';

export interface UploadProgress {
  /** Bytes sent so far. */
  loaded: number;
  /** Bytes to send; null when the browser cannot tell. */
  total: number | null;
}

export interface UploadRequest {
  /** The operation's path, starting with `/api/2.0`. */
  path: string;
  query?: Record<string, string | undefined>;
  body: Blob;
  contentType: string;
  signal?: AbortSignal;
  onProgress?: (progress: UploadProgress) => void;
  /** The last byte has been sent; the service may still be working before it answers. */
  onUploaded?: () => void;
}

function uploadUrl(path: string, query: Record<string, string | undefined> = {}): string {
  const url = new URL(`${apiBaseUrl(getSession()?.baseUrl ?? currentOrigin())}${path}`);
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') url.searchParams.set(name, value);
  return url.toString();
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * POSTs a file with XMLHttpRequest, because fetch reports no upload progress. Same rules as the
 * generated client: the session's credentials, failures as ApiError, a 401 on them ends the session.
 */
export function uploadWithProgress(request: UploadRequest): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (request.signal?.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    const session = getSession();
    xhr.open('POST', uploadUrl(request.path, request.query));
    // Browsers label .csv files differently (text/csv, application/vnd.ms-excel, none), so the type is set here.
    xhr.setRequestHeader('Content-Type', request.contentType);
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(sessionHeaders(session, 'POST'))) xhr.setRequestHeader(name, value);

    xhr.upload.addEventListener('progress', (event) => {
      request.onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : null });
    });
    xhr.upload.addEventListener('load', () => request.onUploaded?.());

    const onAbort = () => xhr.abort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => request.signal?.removeEventListener('abort', onAbort);

    xhr.addEventListener('load', () => {
      settle();
      if (xhr.status < 200) {
        reject(toApiError(undefined, undefined));
        return;
      }
      const body = parseBody(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body);
        return;
      }
      const retryAfter = xhr.getResponseHeader('Retry-After');
      const response = new Response(null, { status: xhr.status, headers: retryAfter ? { 'Retry-After': retryAfter } : {} });
      if (xhr.status === 401 && session && getSession() === session) endSession();
      reject(toApiError(body, response));
    });
    xhr.addEventListener('error', () => {
      settle();
      reject(toApiError(undefined, undefined));
    });
    xhr.addEventListener('abort', () => {
      settle();
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    });
    xhr.send(request.body);
  });
}
