import net from "node:net";

/**
 * Uploads `megabytes` to `path` on `port`, announced (Content-Length) or chunked, as fast as the
 * server reads, and only starts reading the answer after `readAfterMs`: a busy client (a slow
 * phone, a browser still uploading) reads late. Resolves with the answer's status, or 0 when the
 * connection was reset before the answer could be read.
 */
export function uploadReadingLate(port: number, path: string, contentType: string, megabytes: number, announced = true, readAfterMs = 300) {
  return new Promise<number>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.pause();
    let answer = "";
    const settle = () => {
      clearTimeout(giveUp);
      socket.destroy();
      resolve(Number(answer.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0));
    };
    const giveUp = setTimeout(settle, 10_000);
    socket.on("error", () => {});
    socket.on("close", settle);
    const framing = announced ? `Content-Length: ${megabytes * 1024 * 1024}` : "Transfer-Encoding: chunked";
    socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\n${framing}\r\n\r\n`);
    const chunk = Buffer.alloc(1024 * 1024, "a");
    const frame = announced ? chunk : Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]);
    let sent = 0;
    const write = () => {
      while (sent < megabytes && !socket.destroyed) {
        sent++;
        if (!socket.write(frame)) return void socket.once("drain", write);
      }
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
