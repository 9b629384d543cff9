import { Stack, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import {} from 'react-hook-form';
import { MAX_TEST_NUMBERS, type TeamSettings, type TeamSettingsInput } from '../../../shared/contract';
import { FormActions } from '../../components/form-actions';
import { testNumbersInput, testNumbersOf, testNumbersSchema, type TestNumbersValues } from './test-numbers';
import { useSettingsForm } from './use-settings-form';

// The service names the list, or one of its numbers by position: both belong to the one text box.
const SERVER_FIELDS = Object.fromEntries([
  ['test_numbers', 'numbers'],
  ...Array.from({ length: MAX_TEST_NUMBERS * 2 }, (_, index) => [`test_numbers.${index}`, 'numbers']),
]) as Record<string, 'numbers'>;

interface TestNumbersFormProps {
  settings: Pick<TeamSettings, 'test_numbers'>;
  /** Saves the list; a rejection carrying a 422 shows it on the text box. */
  onSubmit: (input: TeamSettingsInput) => Promise<TeamSettings>;
}

export function TestNumbersForm({ settings, onSubmit }: TestNumbersFormProps) {
  const {
    register,
    submit,
    cancel,
    formState: { errors, isSubmitting },
  } = useSettingsForm<TestNumbersValues>({
    resolver: zodResolver(testNumbersSchema),
    initial: testNumbersOf(settings),
    valuesOf: testNumbersOf,
    inputOf: testNumbersInput,
    serverFields: SERVER_FIELDS,
    onSubmit,
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Test numbers">
      <Stack gap="lg">
        <Textarea
          {...register('numbers')}
          label="Test numbers"
          description={`One number a line, at most ${MAX_TEST_NUMBERS}. National numbers are read in the service's default country.`}
          placeholder={'+44 7700 900123\n+33 6 12 34 56 78'}
          autosize
          minRows={3}
          maxRows={MAX_TEST_NUMBERS}
          error={errors.numbers?.message}
          maw={420}
        />
        <FormActions submitLabel="Save test numbers" submitting={isSubmitting} onCancel={cancel} />
      </Stack>
    </form>
  );
}
