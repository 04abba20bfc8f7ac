import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Ends, when the server stops, the connections that never sent a request. Node counts such a connection as
 * active, not idle (its request-header timeout is running), so closing the server would wait for it until that
 * timeout ends it: a minute or more for a browser's preconnect or an HTTP client's spare connection. A request
 * that has started is left to finish as before.
 */
export function endUnusedConnectionsOnClose(app: FastifyInstance): void {
  const unused = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  app.server.on('request', (request: { socket: Socket }) => unused.delete(request.socket));
  app.addHook('preClose', (done) => {
    for (const socket of unused) socket.destroy();
    unused.clear();
    done();
  });
}
