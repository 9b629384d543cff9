import { isHighSurrogate, isLowSurrogate } from './gsm-charset';

/**
 * The `force_utf8` option: drops what cannot be carried as text — lone surrogates (not
 * encodable in UTF-8), U+FFFD (a decoding failure, not content), non-characters, and C0/C1
 * controls (including DEL) other than \n and \r. Everything else, emoji included, is kept.
 */
export function stripForUtf8(text: string): string {
  let parts: string[] | null = null;
  let keptFrom = 0;
  let index = 0;
  while (index < text.length) {
    const codeUnit = text.charCodeAt(index);
    let width = 1;
    let drop: boolean;
    if (isHighSurrogate(codeUnit) && isLowSurrogate(text.charCodeAt(index + 1))) {
      width = 2;
      drop = isNonCharacter(text.codePointAt(index) ?? 0);
    } else {
      drop = isLowSurrogate(codeUnit) || isHighSurrogate(codeUnit) || isUnwanted(codeUnit);
    }
    if (drop) {
      parts ??= [];
      parts.push(text.slice(keptFrom, index));
      keptFrom = index + width;
    }
    index += width;
  }
  if (parts === null) return text;
  parts.push(text.slice(keptFrom));
  return parts.join('');
}

function isUnwanted(codeUnit: number): boolean {
  const control = (codeUnit < 0x20 && codeUnit !== 0x0a && codeUnit !== 0x0d) || (codeUnit >= 0x7f && codeUnit <= 0x9f);
  return control || codeUnit === 0xfffd || isNonCharacter(codeUnit);
}

/** U+FDD0–U+FDEF and the last two code points of every plane (U+FFFE, U+1FFFF, …, U+10FFFF). */
function isNonCharacter(codePoint: number): boolean {
  return (codePoint >= 0xfdd0 && codePoint <= 0xfdef) || (codePoint & 0xfffe) === 0xfffe;
}
