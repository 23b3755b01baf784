import 'reflect-metadata';
import { createHmac, createSign } from 'node:crypto';
import request from 'supertest';
import { composeApplication, type ComposedApplication } from '../../../src/composition-root';
import type { AuthenticationOptions } from '../../../src/composition/modules/authentication.module';
import { loadConfig } from '../../../src/composition/load-config';

/** The secret of the test apps, so tests can forge tokens with it. */
export const TEST_SECRET = 'a-test-secret-that-is-long-enough-0123456789';
export const PASSWORD = 'correct horse battery';

/** The real composition (memory store), with a known secret and a fast password hash cost unless overridden. */
export function givenAuthApp(
  authentication: AuthenticationOptions = {},
  env: Record<string, string> = {},
): Promise<ComposedApplication> {
  const config = loadConfig({
    NODE_ENV: 'test',
    STORE: 'memory',
    DATA_DIR: ':memory:',
    AUTH_SECRET: TEST_SECRET,
    ...env,
  });
  return composeApplication(config, { authentication: { passwordHashCost: 10, ...authentication } });
}

export type Agent = ReturnType<typeof request>;

export async function signUp(agent: Agent, email: string, password = PASSWORD): Promise<Record<string, any>> {
  const response = await agent.post('/users').send({ email, password });
  if (response.status !== 201) throw new Error(`sign-up failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export async function logIn(agent: Agent, email: string, password = PASSWORD): Promise<string> {
  const response = await agent.post('/authentication').send({ strategy: 'local', email, password });
  if (response.status !== 201) throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.accessToken;
}

const base64url = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A JWT built by hand (no library checks), to send what an attacker could. */
export function forgeToken(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  key?: { hmac: string | Buffer } | { rsaPrivateKey: string },
): string {
  const signingInput = `${base64url(header)}.${base64url(payload)}`;
  if (!key) return `${signingInput}.`;
  const signature =
    'hmac' in key
      ? createHmac('sha256', key.hmac).update(signingInput).digest()
      : createSign('RSA-SHA256').update(signingInput).sign(key.rsaPrivateKey);
  return `${signingInput}.${signature.toString('base64url')}`;
}

/** Claims as our issuer writes them, valid for an hour unless overridden. */
export function claims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    iat: now,
    exp: now + 3600,
    aud: 'hexa-services',
    iss: 'hexa-services',
    sub: '0',
    jti: 'test-jti',
    ...overrides,
  };
}

export const decodePart = (token: string, index: 0 | 1) =>
  JSON.parse(Buffer.from(token.split('.')[index], 'base64url').toString('utf8'));
