/** A bad configuration value: the message is one line naming the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
