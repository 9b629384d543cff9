import { notifications } from '@mantine/notifications';
import { describeError } from '../api/api-error';

export function notifySuccess(message: string): void {
  notifications.show({ color: 'teal', title: 'Done', message });
}

export function notifyFailure(title: string, error: unknown): void {
  notifications.show({ color: 'red', title, message: describeError(error), autoClose: 8000 });
}

/** A failure whose sentence the dashboard words itself (e.g. a rule the service's message states differently). */
export function notifyFailureMessage(title: string, message: string): void {
  notifications.show({ color: 'red', title, message, autoClose: 8000 });
}

/** What a test call to a receiver (a webhook, an event endpoint) came to. */
export interface TestCallOutcome {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

/** A test call's outcome, as a toast: the endpoint's answer, or why there was none. */
export function notifyTestCall({ statusCode, latencyMs, error }: TestCallOutcome): void {
  const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
  notifications.show({
    color: ok ? 'teal' : 'red',
    title: ok ? 'The test event was delivered' : 'The test event was not delivered',
    message: ok ? `Your endpoint answered ${statusCode} in ${latencyMs} ms.` : (error ?? `Your endpoint answered ${statusCode}.`),
    autoClose: ok ? undefined : 8000,
  });
}
