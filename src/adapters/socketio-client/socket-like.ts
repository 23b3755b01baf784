/** What the client needs of a socket.io client socket (`io(url)` from socket.io-client). */
export interface SocketLike {
  readonly connected: boolean;
  emit(event: string, ...args: any[]): unknown;
  on(event: string, listener: (...args: any[]) => void): unknown;
  off(event: string, listener?: (...args: any[]) => void): unknown;
}
