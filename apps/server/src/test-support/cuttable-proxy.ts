import net from 'node:net';

/**
 * A TCP proxy to a real service (PostgreSQL here) that a test can cut and mend, so the
 * service seems to go away for one server without stopping it for everyone else on the
 * machine. Cut: every connection through it is destroyed and new ones are refused.
 */
export interface CuttableProxy {
  port: number;
  cut(): void;
  mend(): void;
  close(): Promise<void>;
}

export async function cuttableProxy(target: {
  host: string;
  port: number;
}): Promise<CuttableProxy> {
  const open = new Set<net.Socket>();
  let cut = false;
  const server = net.createServer((client) => {
    if (cut) return client.destroy();
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    cut() {
      cut = true;
      for (const socket of open) socket.destroy();
    },
    mend() {
      cut = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
