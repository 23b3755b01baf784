const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/** The token of an `Authorization: Bearer <token>` header (HTTP requests, socket handshakes). */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  return BEARER.exec(header)?.[1];
}

/** A bearer token as the credentials the jwt strategy reads from `params.authentication`. */
export function bearerAuthentication(
  header: string | string[] | undefined,
): { strategy: 'jwt'; accessToken: string } | undefined {
  const accessToken = bearerToken(header);
  return accessToken === undefined ? undefined : { strategy: 'jwt', accessToken };
}
