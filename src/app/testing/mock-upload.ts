import { vi } from 'vitest';

/** What the dashboard sent with XMLHttpRequest: the upload path, used where fetch cannot report progress. */
export interface SentUpload {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
}

export type UploadHandler = (upload: SentUpload) => Response | Promise<Response>;

/**
 * Answers XMLHttpRequest uploads in place of the service: reports the body as sent in one step,
 * then answers with the handler's Response. Returns the uploads made, to inspect.
 */
export function mockUpload(handler: UploadHandler): SentUpload[] {
  const sent: SentUpload[] = [];

  class FakeXmlHttpRequest extends EventTarget {
    readonly upload = new EventTarget();
    status = 0;
    responseText = '';
    private method = 'GET';
    private url = '';
    private readonly headers: Record<string, string> = {};
    private responseHeaders = new Headers();
    private aborted = false;

    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }

    setRequestHeader(name: string, value: string) {
      this.headers[name.toLowerCase()] = value;
    }

    getResponseHeader(name: string): string | null {
      return this.responseHeaders.get(name);
    }

    abort() {
      this.aborted = true;
      this.dispatchEvent(new ProgressEvent('abort'));
    }

    send(body: unknown) {
      const upload: SentUpload = { method: this.method, url: new URL(this.url), headers: { ...this.headers }, body };
      sent.push(upload);
      const size = body instanceof Blob ? body.size : 0;
      void (async () => {
        await Promise.resolve();
        if (this.aborted) return;
        this.upload.dispatchEvent(new ProgressEvent('progress', { lengthComputable: true, loaded: size, total: size }));
        this.upload.dispatchEvent(new ProgressEvent('load'));
        const response = await handler(upload);
        if (this.aborted) return;
        this.status = response.status;
        this.responseHeaders = response.headers;
        this.responseText = await response.text();
        this.dispatchEvent(new ProgressEvent('load'));
      })();
    }
  }

  vi.stubGlobal('XMLHttpRequest', FakeXmlHttpRequest);
  return sent;
}
