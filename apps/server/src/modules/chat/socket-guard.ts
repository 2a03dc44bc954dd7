import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { EventBus } from '../../core/events/bus.js';
import type { AuthContext } from '../../core/http/request-context.js';
import { AUTH_REVOKED, AUTHZ_CHANGED, type AuthRevoked, type AuthzChanged } from '../auth/sessions.js';

/** Close codes of both channels (docs/realtime.md, "Close codes"). */
export const SOCKET_CLOSE = {
  /** No valid identity, or the session was ended (sign-out, password change, user deleted). */
  unauthorized: 4401,
  /** Signed in, but without the permission the channel needs (also when it is removed). */
  forbidden: 4403,
  /** The opening frame did not arrive in time. */
  openingTimeout: 4408,
  /** Too many sockets from this address or for this identity. */
  tooMany: 4429,
} as const;

export type SocketGuardOptions = {
  /** Ping every socket this often; one that has not answered the previous ping is dropped. */
  pingMs: number;
  /** A socket that sends no frame within this time after opening is closed. */
  openingFrameMs: number;
  perAddress: number;
  perIdentity: number;
};

/** A signed-in user's socket: its token is checked again whenever the tenant's permissions change. */
type UserSocket = {
  socket: WebSocket;
  tenantId: number;
  token: string;
  /** Whether the (re-resolved) user may still hold this socket. */
  allowed: (auth: AuthContext) => boolean;
};

/**
 * What every socket of both channels goes through (issue 13, items 6 and 16): a ws-level heartbeat,
 * a time limit for the opening frame, limits per address and per identity, and closing a user's
 * sockets on every node when their session ends or their permissions change (over the event bus).
 */
export class SocketGuard {
  private readonly perAddress = new Map<string, number>();
  private readonly perIdentity = new Map<string, number>();
  /** Open sockets → whether each answered the last ping. */
  private readonly alive = new Map<WebSocket, boolean>();
  private pinger: ReturnType<typeof setInterval> | undefined;
  /** User id → that user's open sockets on this node. */
  private readonly users = new Map<number, Set<UserSocket>>();

  constructor(
    events: EventBus,
    private readonly authenticate: (token: string) => Promise<AuthContext | null>,
    private readonly options: SocketGuardOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    events.subscribe<AuthRevoked>(AUTH_REVOKED, ({ userId }) => this.closeUser(userId));
    // The session cache subscribed first, so the re-check below reads the changed user.
    events.subscribe<AuthzChanged>(AUTHZ_CHANGED, ({ tenantId }) => this.recheckTenant(tenantId));
  }

  /**
   * Starts guarding a socket just opened from `address`: counted, pinged, and closed unless a frame
   * arrives in time. False when the address already has its limit (the socket is then closed).
   */
  admit(socket: WebSocket, address: string): boolean {
    if (!this.count(this.perAddress, address, socket)) {
      this.log.warn({ address }, 'socket refused: too many from this address');
      socket.close(SOCKET_CLOSE.tooMany, 'too many sockets from this address');
      return false;
    }
    this.heartbeat(socket);
    const deadline = setTimeout(
      () => socket.close(SOCKET_CLOSE.openingTimeout, 'no opening frame'),
      this.options.openingFrameMs,
    );
    deadline.unref();
    socket.once('message', () => clearTimeout(deadline));
    socket.once('close', () => clearTimeout(deadline));
    return true;
  }

  /** Counts the socket against its identity (a visitor or a user); false (and closed) past the limit. */
  identify(socket: WebSocket, identity: string): boolean {
    if (this.count(this.perIdentity, identity, socket)) return true;
    socket.close(SOCKET_CLOSE.tooMany, 'too many sockets for this identity');
    return false;
  }

  /** A signed-in user's socket, closed when their session ends or `allowed` stops holding. */
  trackUser(
    socket: WebSocket,
    auth: AuthContext,
    token: string,
    allowed: (auth: AuthContext) => boolean,
  ): void {
    const key = auth.userId;
    const entry: UserSocket = { socket, tenantId: auth.tenantId, token, allowed };
    let set = this.users.get(key);
    if (!set) {
      set = new Set();
      this.users.set(key, set);
    }
    set.add(entry);
    socket.once('close', () => {
      set.delete(entry);
      if (set.size === 0 && this.users.get(key) === set) this.users.delete(key);
    });
  }

  private count(counts: Map<string, number>, key: string, socket: WebSocket): boolean {
    const current = counts.get(key) ?? 0;
    const limit = counts === this.perAddress ? this.options.perAddress : this.options.perIdentity;
    if (current >= limit) return false;
    counts.set(key, current + 1);
    socket.once('close', () => {
      const left = (counts.get(key) ?? 1) - 1;
      if (left <= 0) counts.delete(key);
      else counts.set(key, left);
    });
    return true;
  }

  /**
   * A peer that vanished without closing never answers: dropped at the next ping. One timer for all
   * sockets (not one each), so an idle socket costs a map entry.
   */
  private heartbeat(socket: WebSocket): void {
    this.alive.set(socket, true);
    socket.on('pong', () => this.alive.set(socket, true));
    socket.once('close', () => this.alive.delete(socket));
    if (this.pinger) return;
    this.pinger = setInterval(() => this.pingAll(), this.options.pingMs);
    this.pinger.unref();
  }

  private pingAll(): void {
    for (const [socket, alive] of this.alive) {
      if (!alive) {
        this.alive.delete(socket);
        socket.terminate();
        continue;
      }
      this.alive.set(socket, false);
      socket.ping();
    }
    if (this.alive.size === 0) {
      clearInterval(this.pinger);
      this.pinger = undefined;
    }
  }

  private closeUser(userId: number): void {
    for (const { socket } of this.users.get(userId) ?? [])
      socket.close(SOCKET_CLOSE.unauthorized, 'session ended');
  }

  private async recheckTenant(tenantId: number): Promise<void> {
    const checks: Promise<void>[] = [];
    for (const set of this.users.values()) {
      for (const entry of set) if (entry.tenantId === tenantId) checks.push(this.recheck(entry));
    }
    await Promise.all(checks);
  }

  private async recheck({ socket, token, allowed }: UserSocket): Promise<void> {
    const auth = await this.authenticate(token);
    if (!auth) socket.close(SOCKET_CLOSE.unauthorized, 'session ended');
    else if (!allowed(auth)) socket.close(SOCKET_CLOSE.forbidden, 'forbidden');
  }
}
