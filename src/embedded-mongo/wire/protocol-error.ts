/** A violation of the wire format: the connection that sent it is closed, the server keeps running. */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
}
