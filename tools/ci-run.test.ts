// .ci/run's last line is the run's outcome. A run stopped by a signal (a time limit's SIGTERM, sent to
// the whole process group as timeout(1) sends it) must say FAILED and why: its EXIT trap used to
// read $? as 0 there and print "PASSED: npm test succeeded". Run here with stand-ins for what it
// provisions (apt-get, sudo, initdb, npm), so it reaches `npm test` at once, whose stand-in waits.
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const stubs = mkdtempSync(path.join(os.tmpdir(), "ci-run-"));
afterAll(() => rmSync(stubs, { recursive: true, force: true }));

function stub(name: string, body: string) {
  writeFileSync(path.join(stubs, name), `#!/usr/bin/env bash\n${body}\n`);
  chmodSync(path.join(stubs, name), 0o755);
}

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  it(`says FAILED and names the ${signal} that stopped it during npm test`, async () => {
    stub("apt-get", "exit 0");
    stub("sudo", 'exec "$@"');
    stub("initdb", "exit 0");
    stub("npm", 'case "$1" in test) echo "npm test started"; exec sleep 600 ;; *) exit 0 ;; esac');

    const run = spawn("bash", [path.join(root, ".ci/run")], {
      cwd: root,
      detached: true,
      env: { ...process.env, PATH: `${stubs}:${process.env.PATH}`, CONTAINER_CHECK: "/nonexistent" },
    });
    let output = "";
    const started = new Promise<void>((resolve) => {
      run.stdout.on("data", (chunk) => {
        output += chunk;
        if (output.includes("npm test started")) resolve();
      });
    });
    run.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => run.on("close", (code) => resolve(code)));
    await started;
    process.kill(-run.pid!, signal);
    const code = await exited;

    const last = output.trim().split("\n").at(-1);
    expect(last).toBe(`FAILED: stopped by ${signal} during npm test`);
    expect(code).toBe(signal === "SIGTERM" ? 143 : 130);
  }, 60_000);
}
