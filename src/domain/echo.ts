/**
 * How many characters of a client's input an error repeats. An error that quotes a 100 KB id or
 * field name whole hands the client its own payload back and swells logs; a short quote is enough
 * to recognise it.
 */
export const ECHO_LENGTH = 100;

/** A client's text as an error message quotes it: cut to `ECHO_LENGTH` characters, with the full length noted. */
export function echo(text: unknown): string {
  const value = typeof text === 'string' ? text : stringify(text);
  if (value.length <= ECHO_LENGTH) return value;
  return `${value.slice(0, ECHO_LENGTH)}... (${value.length} characters)`;
}

/**
 * A client's value as an error's `data` repeats it: numbers, booleans, short strings and small
 * objects as they are, anything longer as a cut text.
 */
export function echoValue(value: unknown): unknown {
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string' && value.length <= ECHO_LENGTH) return value;
  const text = stringify(value);
  return text.length <= ECHO_LENGTH && typeof value === 'object' ? value : echo(text);
}

function stringify(value: unknown): string {
  if (typeof value === 'object' && value !== null) {
    try {
      return JSON.stringify(value) ?? String(value);
    } catch {
      return Object.prototype.toString.call(value);
    }
  }
  return String(value);
}
