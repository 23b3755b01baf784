import net from 'node:net';

export interface SwitchingProxy {
  readonly url: string;
  /** Where new connections go from now on. */
  switchTo(url: string): void;
  /** Cuts every open connection, as a lost network or a restarted load balancer does. */
  cutAll(): void;
  close(): Promise<void>;
}

/** A TCP proxy on loopback standing for a load balancer: clients reach whichever instance it points at. */
export async function startSwitchingProxy(target: string): Promise<SwitchingProxy> {
  let port = Number(new URL(target).port);
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        open.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    switchTo: (url) => {
      port = Number(new URL(url).port);
    },
    cutAll: () => {
      for (const socket of open) socket.destroy();
    },
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
