import WebSocket from 'ws';

/**
 * A socket.io client spoken by hand over one WebSocket (engine.io v4, socket.io v5 packets), so a
 * test can send call frames as fast as the socket takes them, without the client library's
 * buffering. Acks are kept by id; `closed` resolves when the server ends the connection.
 */
export class RawSocketCaller {
  readonly acks = new Map<number, unknown[]>();
  readonly closed: Promise<void>;
  private nextId = 0;

  private constructor(private readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => ws.once('close', () => resolve()));
    ws.on('message', (data) => {
      const text = data.toString();
      if (text === '2') ws.send('3'); // engine.io ping -> pong
      const ack = /^43(\d+)(\[.*)$/s.exec(text);
      if (ack) this.acks.set(Number(ack[1]), JSON.parse(ack[2]) as unknown[]);
    });
  }

  /** Opens the connection and joins the main namespace, signed in with `token` when given. */
  static async connect(url: string, token?: string): Promise<RawSocketCaller> {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no socket.io handshake within 10 s')), 10_000);
      ws.once('error', reject);
      const onMessage = (data: WebSocket.RawData) => {
        const text = data.toString();
        if (text.startsWith('0')) ws.send(token ? `40${JSON.stringify({ token })}` : '40');
        else if (text.startsWith('40')) {
          clearTimeout(timer);
          ws.off('message', onMessage);
          resolve();
        } else if (text.startsWith('44')) reject(new Error(`connection refused: ${text}`));
      };
      ws.on('message', onMessage);
    });
    return new RawSocketCaller(ws);
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /**
   * Sends `count` identical call frames at once, each with its own ack id; returns how many were
   * handed to the socket.
   */
  flood(count: number, method: string, ...args: unknown[]): number {
    const payload = JSON.stringify([method, ...args]);
    let sent = 0;
    for (; sent < count && this.open; sent++) this.ws.send(`42${this.nextId++}${payload}`);
    return sent;
  }

  /** The acks received so far whose first argument (the error) has this code. */
  errorsWithCode(code: number): unknown[] {
    return [...this.acks.values()]
      .map((ack) => ack[0])
      .filter((error) => (error as { code?: unknown } | null)?.code === code);
  }

  close(): void {
    this.ws.terminate();
  }
}
