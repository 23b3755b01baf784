const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/** `Authorization: Bearer <token>` -> what the jwt strategy reads from `params.authentication`. */
export function parseBearerToken(header: string | undefined): { strategy: 'jwt'; accessToken: string } | undefined {
  if (header === undefined) return undefined;
  const match = BEARER.exec(header);
  return match ? { strategy: 'jwt', accessToken: match[1] } : undefined;
}
