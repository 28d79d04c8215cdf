// How deeply a JSON text nests, found before parsing: deep values overflow the stack of every recursive walk after it.

/** Deepest nesting of objects and arrays a JSON request body may have. */
export const MAX_JSON_DEPTH = 128;

/**
 * The position at which `text` nests deeper than `max` arrays and objects, or -1. Strings are
 * skipped (brackets inside them do not count); the text is not validated otherwise.
 * @example
 * deeperThan('[[[1]]]', 2) // 2
 */
export function deeperThan(text: string, max: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return -1;
}

// the index of the quote closing the string that opens at `open` (or the end of the text)
function stringEnd(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return text.length;
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return at;
  }
}
