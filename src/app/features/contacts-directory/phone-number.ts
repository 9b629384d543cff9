import { OPTOUTS_GROUP } from '../../../shared/contract';

/** Whether two ways of writing a number name the same digits (`+44 7700 900123` and `447700900123`). */
export function sameDigits(typed: string, phoneNumber: string): boolean {
  const digits = typed.replace(/\D/g, '');
  return digits !== '' && digits === phoneNumber.replace(/\D/g, '');
}

/** A number in default_optouts receives no campaign; the directory names it among the number's groups. */
export function isOptOutGroup(group: { name: string }): boolean {
  return group.name === OPTOUTS_GROUP;
}
