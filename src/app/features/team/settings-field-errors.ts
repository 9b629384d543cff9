import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { isApiError } from '../../api/api-error';

/**
 * Puts a 422's messages on the form fields they belong to, where the service's field names (dotted
 * for nested ones, e.g. `quiet_hours.start`) are not the form's own. The first one gets the focus.
 */
export function applySettingsErrors<TValues extends FieldValues>(
  error: unknown,
  fields: Partial<Record<string, FieldPath<TValues>>>,
  setError: UseFormSetError<TValues>,
): void {
  if (!isApiError(error)) return;
  let applied = false;
  for (const [serverField, [message]] of Object.entries(error.fieldErrors)) {
    const field = fields[serverField];
    if (!field || !message) continue;
    setError(field, { type: 'server', message }, { shouldFocus: !applied });
    applied = true;
  }
}
