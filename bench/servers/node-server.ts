/** The floor under any framework (see `node-floor-handler.ts`), served on the bench protocol. */
import { createServer } from 'node:http';
import { createFloorHandler } from './node-floor-handler';
import { listenUntilStopped, reportFailure } from './server-protocol';

try {
  listenUntilStopped(createServer(createFloorHandler()), '1');
} catch (error) {
  reportFailure(error);
}
