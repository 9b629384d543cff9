import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import type { Ref } from 'react';

/** Mantine's PasswordInput, with its input marked invalid while it shows an error (Mantine does not do it for this input). */
export function PasswordField({ ref, ...props }: PasswordInputProps & { ref?: Ref<HTMLInputElement> }) {
  return <PasswordInput ref={ref} aria-invalid={props.error ? true : undefined} {...props} />;
}
