import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { isApiError } from '../api/api-error';

/**
 * Puts a 422's per-field messages on the form fields of the same name.
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
    const [message] = error.fieldErrors[field] ?? [];
    if (message) {
      setError(field, { type: 'server', message }, { shouldFocus: !applied });
      applied = true;
    }
  }
  return applied;
}
