// Closing a connection after refusing a body that is still arriving, without losing the answer.
// Both HTTP edges use it, the web app's and the API's: it sits in a folder of its own because
// neither may import the other's (docs/architecture.md).
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** How long a refused upload may go on being read (and thrown away) after its answer. */
const LINGER_MS = 2_000;

/**
 * Answers with `Connection: close`, and closes the way HTTP asks a server to (a "lingering" close:
 * RFC 9112, 9.6): the answer is sent, the write side is shut, and what the client still uploads is
 * read and thrown away for up to LINGER_MS before the socket is destroyed.
 *
 * Node's own close destroys the socket as soon as the answer is flushed. With upload bytes still
 * unread in the kernel, destroying sends a TCP reset, and a client that had not read the answer yet
 * (a slow phone, a busy browser) loses it: the user sees "connection reset" instead of the 413
 * page. Memory stays flat: nothing read is kept.
 */
export function closeAfterAnswer(res: ServerResponse): void {
  res.setHeader("Connection", "close");
  const socket = res.socket;
  if (!socket) return;
  // Node's server calls destroySoon() once an answer marked `close` is finished.
  socket.destroySoon = function lingeringClose(this: Socket) {
    // Taken from HTTP and drained: a body the form reader paused would otherwise stay unread (and
    // be reset at the end), and nothing more is parsed as a request on this connection.
    this.removeAllListeners("data");
    this.on("data", () => {});
    this.resume();
    this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once("close", () => clearTimeout(timer));
  };
}
