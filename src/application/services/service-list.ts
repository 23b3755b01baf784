import { messagesService } from './messages/messages.definition';
import type { ServiceDefinition } from './service-definition';
import { usersService } from './users/users.definition';

/** Every service of the application, in registration order (`npm run new:service` adds to it). */
export const SERVICES: readonly ServiceDefinition[] = [usersService, messagesService];
