import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** A local HTTP listener a test owns: it counts every TCP connection made to it, whatever it carries. */
export interface Listener {
  port: number;
  connections(): number;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 on an ephemeral port; answers anything with an empty 200. */
export async function startListener(): Promise<Listener> {
  let count = 0;
  const sockets = new Set<Socket>();
  const server = createServer((_req, res) => {
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.end("");
  });
  server.on("connection", (s) => {
    count += 1;
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.on("upgrade", (_req, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
