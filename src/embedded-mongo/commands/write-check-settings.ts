import type { Document } from 'bson';
import type { WriteCheckSettings } from '../validation/write-checks';
import type { CommandContext } from './command-context';

/** A write command's `bypassDocumentValidation` flag and where validation warnings go. */
export function writeCheckSettings(command: Document, context: CommandContext): WriteCheckSettings {
  return { bypassDocumentValidation: command.bypassDocumentValidation === true, logger: context.logger };
}
