const VALID_ESCAPE = /(%[0-9A-Fa-f]{2})/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Makes a `Location` value safe for a header: characters a URL may not hold are percent-encoded,
 * while escapes already present are kept (so `/a%20b` is not encoded twice).
 */
export function encodeLocation(location: string): string {
  return location
    .replace(LONE_SURROGATE, '\uFFFD')
    .split(VALID_ESCAPE)
    .map((part, index) => (index % 2 === 1 ? part : encodeURI(part).replace(/%5B/g, '[').replace(/%5D/g, ']')))
    .join('');
}
