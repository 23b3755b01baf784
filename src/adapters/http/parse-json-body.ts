import { BadRequest } from '../../domain/errors';

/** Nesting a request body may have; deeper input is refused before anything recurses over it. */
export const MAX_BODY_DEPTH = 64;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Parses a JSON request body: an object or an array, nested at most `maxDepth` levels, without
 * `__proto__` keys. Malformed or primitive bodies are a 400, never a 500.
 */
export function parseJsonBody(text: string, maxDepth = MAX_BODY_DEPTH): object {
  if (exceedsDepth(text, maxDepth)) throw new BadRequest(`The request body is nested deeper than ${maxDepth} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadRequest('The request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null)
    throw new BadRequest('The request body must be a JSON object or array');
  // `\u` escapes can spell `__proto__`, so only then (or with the plain word) walk the value.
  if ((text.includes('__proto__') || text.includes('\\u')) && hasProtoKey(value)) {
    throw new BadRequest('Invalid key __proto__ in the request body');
  }
  return value;
}

/** One pass over the text, counting brackets outside strings (iterative: no stack to overflow). */
export function exceedsDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > maxDepth) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** Depth is already bounded, but an explicit stack keeps this safe for any caller. */
function hasProtoKey(root: object): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (!Array.isArray(value) && Object.hasOwn(value, '__proto__')) return true;
    for (const inner of Object.values(value)) if (typeof inner === 'object' && inner !== null) stack.push(inner);
  }
  return false;
}
