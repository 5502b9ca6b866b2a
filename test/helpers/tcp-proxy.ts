// A loopback TCP proxy in front of a real server, for fault tests: `cut()` refuses new
// connections and drops open ones (the database "goes away"); `pause()` accepts connections and
// forwards nothing either way (the database hangs: no refusal, no answer); `restore()` brings it
// back (dropping the connections held while paused).
import net from 'node:net';
import { postgresSchema } from './databases.ts';

export interface TcpProxy {
  port: number;
  cut(): void;
  pause(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function tcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let up = true;
  let paused = false;
  const sockets = new Set<net.Socket>();
  const held = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!up) {
      client.destroy();
      return;
    }
    if (paused) {
      // Accepted, never answered.
      held.add(client);
      client.on('error', () => client.destroy());
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    sockets.add(client);
    sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    cut() {
      up = false;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    pause() {
      paused = true;
      // Open connections stop forwarding in both directions; their sockets stay open.
      for (const s of sockets) {
        s.unpipe();
        s.pause();
      }
    },
    restore() {
      up = true;
      if (paused) {
        paused = false;
        for (const s of [...sockets, ...held]) s.destroy();
        sockets.clear();
        held.clear();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of [...sockets, ...held]) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A fresh PostgreSQL schema reached through a proxy: `url` goes through the proxy (give it to the
 * server), `direct` does not (for tools and checks while the proxy is cut or paused). Both are
 * torn down through `cleanups`.
 */
export async function proxiedPostgres(
  cleanups: (() => Promise<void>)[],
): Promise<{ url: string; direct: string; proxy: TcpProxy }> {
  const schema = await postgresSchema();
  cleanups.push(schema.drop);
  const url = new URL(schema.url);
  const proxy = await tcpProxy(url.hostname, Number(url.port || 5432));
  cleanups.push(proxy.close);
  url.port = String(proxy.port);
  return { url: url.toString(), direct: schema.url, proxy };
}
