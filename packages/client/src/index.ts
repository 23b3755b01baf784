/**
 * The application's client package: the framework's browser-safe client (`createApp`, `rest`,
 * `socketio`, `authenticationClient`, the errors and types) with this application's services
 * typed (`ServiceTypes`, generated from the service definitions) and their custom methods known.
 */
import {
  createApp as createAnyApp,
  SERVICE_METHODS,
  type Application,
  type CreateAppOptions,
  type ServiceTypes,
} from '../../../src/client';

export * from '../../../src/client';

/**
 * `createApp()` is typed by this application's `ServiceTypes`, and a service that `service(path)`
 * creates through `rest(...)` or `socketio(...)` has its custom methods without registration.
 * `app.use(path, connection.service(path), { methods })` still registers a service by hand.
 */
export function createApp<Services = ServiceTypes>(options: CreateAppOptions = {}): Application<Services> {
  return createAnyApp<Services>({ serviceMethods: SERVICE_METHODS, ...options });
}
