type Listener = (userId: string) => void;

/**
 * Tells interested parts (the realtime server) that a user's tokens were revoked, so live
 * sockets opened with those tokens are dropped too.
 */
export class SessionEvents {
  private readonly listeners: Listener[] = [];

  onRevoked(listener: Listener): void {
    this.listeners.push(listener);
  }

  revoked(userId: string): void {
    for (const l of this.listeners) l(userId);
  }
}
