import { notifications } from '@mantine/notifications';
import { describeError } from '../api/api-error';

export function notifySuccess(message: string): void {
  notifications.show({ color: 'teal', title: 'Done', message });
}

export function notifyFailure(title: string, error: unknown): void {
  notifications.show({ color: 'red', title, message: describeError(error), autoClose: 8000 });
}
