/**
 * A bare TCP relay: every connection is piped to the provisioner, byte for byte, and nothing else. It is the
 * yardstick of `bench:observe`: what any proxy in a process of its own costs on this machine before it reads a
 * byte, the floor under what the observer adds.
 * Run: node dist/bench/support/bare-relay.js UPSTREAM_URL (prints `relay http://127.0.0.1:PORT` on stderr)
 */
import { connect, createServer, type AddressInfo } from 'node:net';

const upstream = new URL(process.argv[2] ?? '');
const server = createServer((client) => {
  const provisioner = connect(Number(upstream.port), upstream.hostname);
  client.setNoDelay(true);
  provisioner.setNoDelay(true);
  client.pipe(provisioner);
  provisioner.pipe(client);
  client.on('error', () => provisioner.destroy());
  provisioner.on('error', () => client.destroy());
  client.on('close', () => provisioner.destroy());
  provisioner.on('close', () => client.destroy());
});
server.listen(0, '127.0.0.1', () => console.error(`relay http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => process.exit(0));
