// What CSV field text holds: the int64/float64/bool forms that inference and conversion accept.

/** float64 text: decimal or exponent notation, NaN, Infinity/inf with optional sign. */
export const FLOAT_TEXT = /^[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|inf|infinity)$|^nan$/i;
/** bool text: true or false in any case. */
export const BOOL_TEXT = /^(?:true|false)$/i;

/**
 * The number a float field holds, or undefined. Plain decimal text (the common case) is checked by
 * its first and last characters and parsed by `Number`; anything else goes through FLOAT_TEXT.
 */
export function floatOf(text: string): number | undefined {
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  // Number() also takes hex/octal/binary prefixes, surrounding blanks, '' and 'Infinity': rule those out cheaply
  if ((isDigit(first) || first === 45 || first === 46) && isDigit(last) && !(first === 48 && text.length > 2 && isRadix(text.charCodeAt(1)))) {
    const n = Number(text);
    if (n === n) return n;
  }
  if (!FLOAT_TEXT.test(text)) return undefined;
  const lower = text.toLowerCase();
  if (lower.endsWith('inf') || lower.endsWith('infinity')) return text.startsWith('-') ? -Infinity : Infinity;
  return Number(text);
}

/** The integer an int field holds (a number when exact, else a bigint), or undefined. */
export function integerOf(text: string): number | bigint | undefined {
  const n = text.length;
  let i = text.charCodeAt(0) === 45 || text.charCodeAt(0) === 43 ? 1 : 0;
  if (i === n) return undefined;
  for (; i < n; i++) if (!isDigit(text.charCodeAt(i))) return undefined;
  return n < 16 ? Number(text) : BigInt(text);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

// the second character of 0x.., 0o.., 0b.. (either case)
function isRadix(c: number): boolean {
  const lower = c | 32;
  return lower === 120 || lower === 111 || lower === 98;
}
