/** Events of services bound to another server, heard from that server (Node). */
export {
  subscribeToRemoteEvents,
  type RemoteEventSettings,
  type RemoteEventSubscription,
} from './remote-event-subscription';
