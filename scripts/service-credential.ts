import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { createJwtSettings, signServiceCredential } from '../src/adapters/passport';
import { SERVICES } from '../src/application/services/service-list';
import { resolveAuthSecret } from '../src/composition/auth-secret';
import { loadConfig } from '../src/composition/load-config';
import { credentialScopes } from '../src/composition/credential-scopes';
import { revokeCredential } from '../src/composition/revoked-credentials';

const USAGE =
  'usage: npm run service-credential -- <caller name> --services <service,...> [--methods <method,...>]\n' +
  '         (the name: letters, digits, . _ -, at most 64; the methods default to every method of each service)\n' +
  '       npm run service-credential -- --revoke <id>';

/**
 * `npm run service-credential -- <caller name> --services messages`, run with the called server's
 * configuration (AUTH_SECRET or DATA_DIR, JWT_AUDIENCE, JWT_ISSUER): prints a credential for the
 * calling server, to give it as `<SERVICE>_REMOTE_TOKEN`, allowed to call the named services of
 * this server (all their methods, or `--methods`) and nothing else; the credential is the last
 * line. `npm run service-credential -- --revoke <id>` revokes one (the server stops accepting it
 * within a second). Neither needs the server stopped.
 */
async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { revoke: { type: 'string' }, services: { type: 'string' }, methods: { type: 'string' } },
  });
  const config = loadConfig();
  if (values.revoke !== undefined) {
    if (!/^[0-9a-f-]{36}$/i.test(values.revoke))
      throw new Error(`"${values.revoke.slice(0, 100)}" is not a credential id`);
    const file = revokeCredential(config.dataDir, values.revoke);
    console.log(
      `revoked ${values.revoke.toLowerCase()} (listed in ${file}); with several instances or another DATA_DIR, also ` +
        `add it to SERVICE_CREDENTIALS_REVOKED`,
    );
    return;
  }
  if (positionals.length !== 1 || !/^[a-z0-9][a-z0-9._-]{0,63}$/i.test(positionals[0]) || values.services === undefined)
    throw new Error(USAGE);
  const scopes = credentialScopes(SERVICES, values.services, values.methods);
  const settings = createJwtSettings(
    { secret: await resolveAuthSecret(config) },
    { audience: config.auth.jwtAudience, issuer: config.auth.jwtIssuer },
  );
  const { credential, credentialId } = signServiceCredential(settings, positionals[0], scopes);
  const allowed = Object.entries(scopes)
    .map(([path, methods]) => `${path} (${methods.join(', ')})`)
    .join('; ');
  console.log(
    `service credential for "${positionals[0]}", id ${credentialId}, allowed to call: ${allowed}; every call must ` +
      `name the user it acts for (X-On-Behalf-Of).`,
  );
  console.log('Give it to the calling server as <SERVICE>_REMOTE_TOKEN.');
  console.log(`It does not expire; revoke it with: npm run service-credential -- --revoke ${credentialId}`);
  console.log(credential);
}

main().catch((error: Error) => {
  console.error(`service-credential: ${error.message}`);
  process.exit(1);
});
