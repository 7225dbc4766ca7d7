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

/** The lines a process wrote on standard error, for "one line" assertions. */
