import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { isApiError } from '../api/api-error';

/**
 * Puts a 422's per-field messages on the form fields of the same name; a message about a part of a
 * field (`events.0`, `headers.X-Token`) goes on the field when it has none of its own.
 * Returns false when the error had none for these fields, so the caller reports it another way.
 */
export function applyServerFieldErrors<TValues extends FieldValues>(
  error: unknown,
  fields: readonly FieldPath<TValues>[],
  setError: UseFormSetError<TValues>,
): boolean {
  if (!isApiError(error)) return false;
  let applied = false;
  for (const field of fields) {
    const [message] =
      error.fieldErrors[field] ?? Object.entries(error.fieldErrors).find(([name, messages]) => name.startsWith(`${field}.`) && messages.length > 0)?.[1] ?? [];
    if (message) {
      setError(field, { type: 'server', message }, { shouldFocus: !applied });
      applied = true;
    }
  }
  return applied;
}

/**
 * As applyServerFieldErrors; a 422 whose messages name none of `fields` (e.g. a header's, keyed by
 * its name rather than its row) is shown on the form itself (`root`), above its buttons.
 */
export function applyServerErrors<TValues extends FieldValues>(
  error: unknown,
  fields: readonly FieldPath<TValues>[],
  setError: UseFormSetError<TValues>,
): void {
  if (!applyServerFieldErrors(error, fields, setError) && isApiError(error) && error.status === 422) {
    setError('root', { type: 'server', message: error.message });
  }
}
