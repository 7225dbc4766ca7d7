// One process run to its end, as an operator runs it: its exit code and everything it printed.
// `until` ends it (SIGTERM) once its standard output says enough (a server that has started).
import { spawn } from "node:child_process";

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  until?: (stdout: string) => boolean,
): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: process.cwd(), env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
      if (until?.(stdout)) child.kill("SIGTERM");
    });
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Runs the API alone (api/main.ts) with `env` beyond PATH until `whileUp` is done, and answers its
 * exit code and output. `whileUp` gets the API's address and what it has printed so far.
 *
 * The port is drawn below Linux's ephemeral range (32768-60999), where the run's many outgoing
 * connections take their local ports: a listener there met "the port is in use" when a parallel
 * test file's load held it. A port another listener took meanwhile is drawn again.
 */
export async function runApi(env: NodeJS.ProcessEnv, whileUp?: (url: string, output: () => string) => Promise<void>) {
  for (let attempt = 1; ; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const result = await runApiOn(port, env, whileUp);
    if (attempt === 5 || !result.output.includes(`Cannot listen on 127.0.0.1:${port}: the port is in use`))
      return result;
  }
}

function runApiOn(
  port: number,
  env: NodeJS.ProcessEnv,
  whileUp?: (url: string, output: () => string) => Promise<void>,
) {
  const child = spawn(process.execPath, ["api/main.ts"], {
    env: { PATH: process.env.PATH, API_PORT: String(port), API_HOST: "127.0.0.1", DEMO: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    let started = false;
    child.stdout.on("data", async () => {
      if (started || !output.includes("API listening") || !whileUp) return;
      started = true;
      try {
        await whileUp(`http://127.0.0.1:${port}`, () => output);
      } catch (error) {
        reject(error);
      } finally {
        child.kill("SIGTERM");
      }
    });
    child.on("exit", (code) => resolve({ code, output }));
  });
}

/** The lines a process wrote on standard error, for "one line" assertions. */
