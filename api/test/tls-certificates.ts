// Certificates made at test time with openssl (on every machine the tests run on): a private
// certificate authority, as a clinic's own SMS gateway might use, and server certificates it
// signs for the names asked. The keys and certificates are files in a temporary folder, where
// NODE_EXTRA_CA_CERTS can point at the authority's, as an operator's setting would.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface TestCertificate {
  key: string;
  cert: string;
}

/**
 * A new authority in a folder of its own: `caFile` is its certificate's path, `issue(names)` a
 * server certificate it signs for `names` (host names, or IP addresses), and `remove()` deletes it all.
 */
export function testCertificateAuthority() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "test-ca-"));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "pipe" });
  const newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  openssl(
    "req",
    "-x509",
    ...newKey,
    "-keyout",
    file("ca.key"),
    "-out",
    file("ca.pem"),
    "-days",
    "2",
    "-subj",
    "/CN=HealthBook test CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  );
  let issued = 0;
  return {
    caFile: file("ca.pem"),
    issue(names: string[]): TestCertificate {
      const n = ++issued;
      const san = names.map((name) => (/^[\d.]+$/.test(name) ? `IP:${name}` : `DNS:${name}`)).join(",");
      fs.writeFileSync(file(`${n}.ext`), `subjectAltName=${san}\n`);
      openssl("req", ...newKey, "-keyout", file(`${n}.key`), "-out", file(`${n}.csr`), "-subj", `/CN=${names[0]}`);
      openssl(
        "x509",
        "-req",
        "-in",
        file(`${n}.csr`),
        "-CA",
        file("ca.pem"),
        "-CAkey",
        file("ca.key"),
        "-CAcreateserial",
        "-out",
        file(`${n}.pem`),
        "-days",
        "2",
        "-extfile",
        file(`${n}.ext`),
      );
      return { key: fs.readFileSync(file(`${n}.key`), "utf8"), cert: fs.readFileSync(file(`${n}.pem`), "utf8") };
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
