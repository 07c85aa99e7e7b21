// A websocket to this server that reconnects by itself (backoff with jitter), for the game page,
// the lobby and the presence socket of the other pages. Messages arrive parsed; a close code in
// `finalCodes` (the server saying retrying will not help) stops it.

export class Socket {
  /** `path`: e.g. `/ws/lobby`; `onStatus(kind, text)`: kind connecting|open|closed; `onReopen()`:
   * the connection came back after a loss (ask for what was missed); `onClose(event)`. */
  constructor(path, { onMessage, onStatus = () => {}, onReopen = () => {}, onClose = () => {}, finalCodes = [] } = {}) {
    this.url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${path}`;
    Object.assign(this, { onMessage, onStatus, onReopen, onClose, finalCodes });
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.everOpened = false;
    this.stopped = false;
    document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') this.nudge(); });
    window.addEventListener('online', () => this.nudge());
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.stopped) return;
    this.onStatus('connecting', this.everOpened ? 'Reconnecting…' : 'Connecting…');
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (err) {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener('open', () => {
      if (this.ws !== ws) return;
      const again = this.everOpened;
      this.everOpened = true;
      this.onStatus('open', 'Connected');
      if (again) this.onReopen();
    });
    ws.addEventListener('message', (e) => {
      if (this.ws !== ws) return;
      this.attempt = 0;
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      this.onMessage(msg);
    });
    ws.addEventListener('close', (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.onClose(e);
      if (this.finalCodes.includes(e.code)) {
        this.stopped = true;
        this.onStatus('closed', 'Not connected');
        return;
      }
      this.scheduleReconnect();
    });
  }

  scheduleReconnect() {
    if (this.stopped || this.timer) return;
    const delay = Math.min(15000, 500 * 2 ** this.attempt) * (0.8 + Math.random() * 0.4);
    this.attempt = Math.min(this.attempt + 1, 8);
    this.onStatus('closed', `Disconnected — reconnecting in ${Math.ceil(delay / 1000)} s`);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Reconnect now if the connection is down (the page became visible, the network came back). */
  nudge() {
    if (!this.ws && !this.stopped) { this.attempt = 0; this.connect(); }
  }

  /** Connect again now, e.g. with the new identity's cookie after logging in (or a first action made
   * this visitor a guest): the server knows who a socket is when it opens. */
  reconnect() {
    const old = this.ws;
    this.ws = null; // its close is not a loss to recover from
    if (old) old.close();
    this.attempt = 0;
    this.connect();
  }

  /** Stop for good (e.g. the page's subject does not exist). */
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }

  get open() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  /** Sends `obj` as JSON; false (nothing sent, a reconnection started) when not connected. */
  send(obj) {
    if (!this.open) {
      this.nudge();
      return false;
    }
    this.ws.send(JSON.stringify(obj));
    return true;
  }
}
