// `npm ci`'s last step (postinstall), under whatever Node and npm the machine has: makes sure
// node_modules/.bin/node is the Node 24 that the optional node-linux-* package brought
// (docs/decisions/0005-node-from-the-npm-registry.md). npm 11 links it by itself; npm 10 installs
// the package but links no `node` binary, and every npm script then ran on the machine's old Node.
// Plain JavaScript that any Node can run.
import fs from "node:fs";
import path from "node:path";

const target = path.join("node_modules", `node-${process.platform}-${process.arch}`, "bin", "node");
const link = path.join("node_modules", ".bin", "node");
if (fs.existsSync(target) && !fs.existsSync(link)) {
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(path.relative(path.dirname(link), target), link);
}
