import type { EventBusPort } from '../../../ports/event-bus.port';
import type { SessionRegistry } from './session-registry';

/** The event of an envelope that announces ended sessions; its data is `{ sessionIds }` and nothing else. */
const SESSIONS_ENDED = 'ended';
const SESSIONS_PATH = 'sessions';

/**
 * Sessions ended on one instance end on every other one: their ids (never a token) go out on
 * `bus`, a bus of their own, and ids from the others are ended here. Best effort like every bus:
 * an announcement lost while the bus is down is caught up when another instance reads the
 * session again (`SessionRegistry`'s `recheckMs`).
 */
export function shareSessionEnds(registry: SessionRegistry, bus: EventBusPort, origin: string): void {
  registry.onEnded((sessionIds, where) => {
    if (where === 'here')
      bus.publish({
        event: SESSIONS_ENDED,
        path: SESSIONS_PATH,
        data: { sessionIds },
        routing: { origin, service: SESSIONS_PATH },
      });
  });
  bus.subscribe((envelope) => {
    if (envelope.routing.origin === origin || envelope.event !== SESSIONS_ENDED || envelope.path !== SESSIONS_PATH)
      return;
    const sessionIds = (envelope.data as { sessionIds?: unknown } | null)?.sessionIds;
    if (Array.isArray(sessionIds) && sessionIds.every((id) => typeof id === 'string'))
      registry.endedElsewhere(sessionIds);
  });
}
