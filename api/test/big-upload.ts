import net from "node:net";

/**
 * Uploads `megabytes` to `path` on `port` over a plain socket, announced (Content-Length) or
 * chunked, as fast as the server reads, and resolves with the answer's status, or 0 when the
 * connection ended before an answer could be read. With `readAfterMs`, the answer is only read
 * after that delay, as a busy client (a slow phone, a browser still uploading) reads it. A server
 * that refuses closes the connection, so the rest of the upload fails, as it should: only the
 * answer counts.
 */
export function bigUpload(
  port: number,
  path: string,
  contentType: string,
  megabytes: number,
  { announced = true, readAfterMs = 0 } = {},
) {
  return new Promise<number>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.pause();
    let answer = "";
    const settle = () => {
      clearTimeout(giveUp);
      socket.destroy();
      resolve(Number(answer.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0));
    };
    const giveUp = setTimeout(settle, 30_000);
    socket.on("error", () => {});
    socket.on("close", settle);
    const framing = announced ? `Content-Length: ${megabytes * 1024 * 1024}` : "Transfer-Encoding: chunked";
    socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\n${framing}\r\n\r\n`);
    const chunk = Buffer.alloc(1024 * 1024, "a");
    const frame = announced
      ? chunk
      : Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]);
    let sent = 0;
    const write = () => {
      while (sent < megabytes && !socket.destroyed) {
        sent++;
        if (!socket.write(frame)) return void socket.once("drain", write);
      }
      if (!announced && !socket.destroyed) socket.write("0\r\n\r\n");
    };
    write();
    setTimeout(() => {
      socket.on("data", (data: Buffer) => {
        answer += data.toString("latin1");
        if (/^HTTP\/1\.1 \d{3}/.test(answer)) settle();
      });
      socket.resume();
    }, readAfterMs);
  });
}
