import type { Socket } from 'socket.io';

interface EnginePacket {
  data?: unknown;
}

interface EngineConnection {
  writeBuffer?: EnginePacket[];
  transport?: { socket?: { bufferedAmount?: number } };
}

/**
 * Bytes written to a socket that its client has not taken yet: packets engine.io holds back
 * while the transport is busy, plus what the WebSocket has not handed to the kernel.
 */
export function bufferedBytes(socket: Socket): number {
  const engine = socket.conn as unknown as EngineConnection;
  let total = engine.transport?.socket?.bufferedAmount ?? 0;
  const queue = engine.writeBuffer;
  if (queue) for (const packet of queue) total += sizeOf(packet.data);
  return total;
}

function sizeOf(data: unknown): number {
  if (typeof data === 'string') return data.length;
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return data.byteLength;
  return 0;
}
