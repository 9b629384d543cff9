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
