import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ALIVE } from '../routes/health.js';
import { requestIdOf } from './request-id.js';

/**
 * The HTTP server's timeouts, Fastify's defaults: the app gives them to Fastify, and the front door sets them on the
 * server it creates before Fastify loads (Fastify sets them only on a server it creates itself).
 */
export const SERVER_TIMEOUTS = { keepAliveTimeout: 72_000, requestTimeout: 0, connectionTimeout: 0 } as const;

type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;
type Upgrade = [request: IncomingMessage, socket: Duplex, head: Buffer];

/**
 * The server's listening socket, opened before the app is built (loading and building the app is most of a start).
 * Until the app is ready, `/healthz` is answered here, since the process runs, and every other request, WebSocket
 * upgrades included, waits and reaches the app once it is ready, in arrival order: no request sees a half-built app.
 * The app is given this socket's server (Fastify's `serverFactory`), so from then on it serves it as its own.
 */
export class FrontDoor {
  readonly server: Server;
  private app: RequestHandler | undefined;
  private ready = false;
  private readonly waiting: [IncomingMessage, ServerResponse][] = [];
  private readonly waitingUpgrades: Upgrade[] = [];

  constructor() {
    const door = this;
    this.server = createServer((request, response) => door.request(request, response));
    this.server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveTimeout;
    this.server.requestTimeout = SERVER_TIMEOUTS.requestTimeout;
    this.server.setTimeout(SERVER_TIMEOUTS.connectionTimeout);
    // Node hands an upgrade to the server only when the server has an 'upgrade' listener; the app's (the
    // WebSocket plugin's) is added while the app is built, and must see none before the routes are ready.
    const emit = this.server.emit;
    this.server.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
      if (event === 'upgrade' && !door.ready) {
        const upgrade = args as Upgrade;
        // Node took its error listener off the socket before the upgrade; a socket that fails while it waits ends.
        upgrade[1].on('error', endWaitingSocket);
        door.waitingUpgrades.push(upgrade);
        return true;
      }
      return Reflect.apply(emit, this, [event, ...args]) as boolean;
    } as Server['emit'];
    this.server.on('upgrade', keepUpgradesComing);
  }

  /** Listens on `port` and `host`; resolves once the socket accepts connections. */
  listen(port: number, host: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen({ port, host }, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  /** Fastify's `serverFactory`: the app's request handler, used from `open()` on, and this socket's server. */
  readonly serverFactory = (handler: RequestHandler): Server => {
    this.app = handler;
    return this.server;
  };

  /** The app is ready: the waiting requests and upgrades reach it, in arrival order, and so does every later one. */
  open(): void {
    const app = this.app;
    if (!app) throw new Error('The app was built without the front door (serverFactory)');
    this.ready = true;
    this.server.off('upgrade', keepUpgradesComing);
    for (const [request, response] of this.waiting.splice(0)) app(request, response);
    for (const [request, socket, head] of this.waitingUpgrades.splice(0)) {
      socket.off('error', endWaitingSocket);
      this.server.emit('upgrade', request, socket, head);
    }
  }

  /** Stops accepting connections; resolves when the open ones have ended (Node ends the idle ones at once). */
  close(): Promise<void> {
    for (const [, socket] of this.waitingUpgrades.splice(0)) socket.destroy();
    for (const [request] of this.waiting.splice(0)) request.socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private request(request: IncomingMessage, response: ServerResponse): void {
    if (this.ready && this.app) {
      this.app(request, response);
      return;
    }
    if (isLivenessCheck(request)) {
      answerAlive(request, response);
      return;
    }
    this.waiting.push([request, response]);
  }
}

/** Opens the front door on `port` and `host`. */
export async function openFrontDoor(port: number, host: string): Promise<FrontDoor> {
  const door = new FrontDoor();
  await door.listen(port, host);
  return door;
}

function isLivenessCheck(request: IncomingMessage): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return (query === -1 ? url : url.slice(0, query)) === '/healthz';
}

/** The answer the app's `/healthz` route gives, with its headers. */
function answerAlive(request: IncomingMessage, response: ServerResponse): void {
  const body = JSON.stringify(ALIVE);
  response.writeHead(200, {
    'x-request-id': requestIdOf(request),
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}

function keepUpgradesComing(): void {}

function endWaitingSocket(this: Duplex): void {
  this.destroy();
}
