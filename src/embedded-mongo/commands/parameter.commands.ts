import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import type { CommandHandler } from './command-context';

const COMMAND_FIELDS = new Set([
  'getParameter',
  'setParameter',
  '$db',
  'lsid',
  '$clusterTime',
  '$readPreference',
  'comment',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
]);

/** `getParameter`: `'*'` (or `{ allParameters: true }`) returns all; otherwise the fields named. */
export const getParameterCommand: CommandHandler = (command, context) => {
  const selector = command.getParameter;
  const all =
    selector === '*' ||
    (typeof selector === 'object' && selector !== null && (selector as Document).allParameters === true);
  if (all) return { ...context.server.parameters.all(), ok: 1 };
  const reply: Document = {};
  for (const key of Object.keys(command)) {
    if (COMMAND_FIELDS.has(key)) continue;
    const value = context.server.parameters.get(key);
    if (value !== undefined) reply[key] = value;
  }
  if (Object.keys(reply).length === 0) throw new CommandError('InvalidOptions', 'no option found to get');
  return { ...reply, ok: 1 };
};

/** `setParameter: 1, <name>: <value>`: answers with the previous value as `was`, as mongod does. */
export const setParameterCommand: CommandHandler = (command, context) => {
  const names = Object.keys(command).filter((key) => !COMMAND_FIELDS.has(key));
  if (names.length === 0)
    throw new CommandError('InvalidOptions', 'no option found to set, use help:true to see options ');
  let was: unknown;
  for (const name of names) was = context.server.parameters.set(name, command[name]);
  return { was, ok: 1 };
};
