import { z } from 'zod';
import { MAX_TEST_NUMBERS, type TeamSettings, type TeamSettingsInput } from '../../../shared/contract';

/** The numbers as the form edits them: one a line. */
export const testNumbersSchema = z.object({
  numbers: z.string().refine((text) => linesOf(text).length <= MAX_TEST_NUMBERS, `Keep at most ${MAX_TEST_NUMBERS} test numbers.`),
});
export type TestNumbersValues = z.infer<typeof testNumbersSchema>;

const linesOf = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** The service answers E.164 digits; people read them with their `+`. */
const shown = (number: string) => `+${number}`;

export const testNumbersOf = (settings: Pick<TeamSettings, 'test_numbers'>): TestNumbersValues => ({ numbers: settings.test_numbers.map(shown).join('\n') });
export const testNumbersInput = (values: TestNumbersValues): TeamSettingsInput => ({ test_numbers: linesOf(values.numbers) });

/** The rule in a sentence, for the members who read it and for the notice after a save. */
export function describeTestNumbers(numbers: string[]): string {
  return numbers.length === 0
    ? "Tests go to the members' own numbers only (admins may send them anywhere)."
    : `Tests go to the members' own numbers and to ${numbers.map(shown).join(', ')} (admins may send them anywhere).`;
}
