import net from 'node:net';

/**
 * A loopback port free right now, as the system hands one out (listen on 0, read it, close): a
 * random number in a fixed range can be an outgoing connection's ephemeral port at that moment.
 */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
