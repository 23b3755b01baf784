import { parseArgs } from 'node:util';
import { createJwtSettings, signServiceCredential } from '../src/adapters/passport';
import { resolveAuthSecret } from '../src/composition/auth-secret';
import { loadConfig } from '../src/composition/load-config';
import { revokeCredential } from '../src/composition/revoked-credentials';

/**
 * `npm run service-credential -- <caller name>`, run with the called server's configuration
 * (AUTH_SECRET or DATA_DIR, JWT_AUDIENCE, JWT_ISSUER): prints a credential for the calling
 * server, to give it as `<SERVICE>_REMOTE_TOKEN`; the credential is the last line.
 * `npm run service-credential -- --revoke <id>` revokes one (the server stops accepting it
 * within a second). Neither needs the server stopped.
 */
async function main(): Promise<void> {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { revoke: { type: 'string' } } });
  const config = loadConfig();
  if (values.revoke !== undefined) {
    if (!/^[0-9a-f-]{36}$/i.test(values.revoke)) throw new Error(`"${values.revoke}" is not a credential id`);
    const file = revokeCredential(config.dataDir, values.revoke.toLowerCase());
    console.log(`revoked ${values.revoke} (listed in ${file}); with several instances or another DATA_DIR, also add it to SERVICE_CREDENTIALS_REVOKED`);
    return;
  }
  if (positionals.length !== 1 || !/^[a-z0-9][a-z0-9._-]{0,63}$/i.test(positionals[0])) {
    throw new Error('usage: npm run service-credential -- <caller name>   (the name: letters, digits, . _ -, at most 64)   or   -- --revoke <id>');
  }
  const settings = createJwtSettings({ secret: await resolveAuthSecret(config) }, { audience: config.auth.jwtAudience, issuer: config.auth.jwtIssuer });
  const { credential, credentialId } = signServiceCredential(settings, positionals[0]);
  console.log(`service credential for "${positionals[0]}", id ${credentialId}: give it to the calling server as <SERVICE>_REMOTE_TOKEN;`);
  console.log(`it does not expire; revoke it with: npm run service-credential -- --revoke ${credentialId}`);
  console.log(credential);
}

main().catch((error: Error) => {
  console.error(`service-credential: ${error.message}`);
  process.exit(1);
});
