// The deployment files, checked as far as a machine without Docker or a cluster allows: the
// compose file against the Compose Specification's JSON schema (dclint, offline), the Kubernetes
// manifests against the Kubernetes API schemas (kubernetes-models), and then what this app needs
// from them, which no schema knows.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { Deployment } from "kubernetes-models/apps/v1";
import { Service } from "kubernetes-models/v1";

const here = path.dirname(new URL(import.meta.url).pathname);
const read = (file: string) => readFileSync(path.join(here, file), "utf8");

/** dclint's exit code and report: schema errors only (its style warnings are a matter of taste). */
function dclint(file: string) {
  const bin = path.resolve(here, "../node_modules/dclint/bin/dclint.cjs");
  try {
    // HTTP_BIND sets the published port's interface, which dclint cannot see through the variable.
    execFileSync(
      process.execPath,
      [bin, file, "--quiet", "--color=false", "--disable-rule", "no-unbound-port-interfaces"],
      { stdio: "pipe" },
    );
    return { code: 0, report: "" };
  } catch (error) {
    const e = error as { status: number; stdout: Buffer };
    return { code: e.status, report: String(e.stdout) };
  }
}

describe("deploy/compose.yaml", () => {
  const compose = parse(read("compose.yaml"), { merge: true });
  const services: Record<string, any> = compose.services;
  const webs = Object.keys(services).filter((name) => /^web-\d+$/.test(name));

  it("follows the Compose Specification, and a typo would not", () => {
    const ok = dclint(path.join(here, "compose.yaml"));
    expect(ok.report).toBe("");
    expect(ok.code).toBe(0);
    const dir = mkdtempSync(path.join(os.tmpdir(), "compose-"));
    const typo = path.join(dir, "compose.yaml");
    writeFileSync(typo, read("compose.yaml").replace("start_period: 20s", "start_priod: 20s"));
    const bad = dclint(typo);
    expect(bad.code).not.toBe(0);
    expect(bad.report).toMatch(/healthcheck.*additional properties/);
  });

  it("runs the API alone on PostgreSQL, and at least two web instances on that API", () => {
    expect(services.api.command).toEqual(["node", "api/main.ts"]);
    expect(services.api.environment.DATABASE_URL).toMatch(/^postgres:\/\/[^@]+@db:5432\//);
    expect(services.api.environment.API_HOST).toBe("0.0.0.0");
    expect(webs.length).toBeGreaterThanOrEqual(2);
    for (const web of webs) {
      expect(services[web].environment.API_URL).toBe(`http://api:${services.api.environment.API_PORT}`);
      // The web tier never opens the database itself: one owner of the migrations.
      expect(services[web].environment.DATABASE_URL).toBeUndefined();
      expect(services[web].depends_on.api.condition).toBe("service_healthy");
    }
    expect(services.api.depends_on.db.condition).toBe("service_healthy");
  });

  it("keeps PostgreSQL's data in a named volume", () => {
    expect(services.db.volumes).toContain("db-data:/var/lib/postgresql/data");
    expect(compose.volumes).toHaveProperty("db-data");
  });

  it("checks the health of the database, the API and every web instance", () => {
    expect(services.db.healthcheck.test).toContain("pg_isready");
    expect(services.api.healthcheck.test.join(" ")).toContain("/healthz");
    // The web instances use the image's own HEALTHCHECK (GET /healthz).
    expect(read("../Dockerfile")).toMatch(/^HEALTHCHECK [\s\S]*\/healthz/m);
    for (const web of webs) expect(services[web].healthcheck).toBeUndefined();
  });

  it("takes every secret from the environment and refuses to start without the required ones", () => {
    const env = { ...services.api.environment, ...services[webs[0]].environment, ...services.db.environment };
    for (const name of ["SESSION_SECRET", "POSTGRES_PASSWORD", "SMTP_URL"])
      expect(env[name], name).toMatch(new RegExp(`^\\$\\{${name}:\\?`));
    expect(env.DATABASE_URL).toContain("${POSTGRES_PASSWORD:?");
    expect(env.METRICS_TOKEN).toBe("${METRICS_TOKEN:-}");
    // The example holds names, never values.
    for (const line of read(".env.example").split("\n")) {
      if (/^(POSTGRES_PASSWORD|SESSION_SECRET|METRICS_TOKEN)=/.test(line)) expect(line).toMatch(/=$/);
    }
  });

  it("sends the browsers through nginx to every web instance, and never /metrics", () => {
    const nginx = read("nginx.conf");
    for (const web of webs) expect(nginx).toContain(`server ${web}:3000`);
    expect(nginx).toMatch(/location = \/metrics \{ return 404; \}/);
    expect(services.proxy.volumes).toContain("./nginx.conf:/etc/nginx/conf.d/default.conf:ro");
    for (const web of webs) expect(services[web].environment.TRUST_PROXY).toBe("uniquelocal");
    // The API believes the web instances' X-Forwarded-For: otherwise every browser would share
    // two addresses, and the per-address rate limits would hold everyone.
    expect(services.api.environment.TRUST_PROXY).toBe("uniquelocal");
  });
});

describe("deploy/k8s", () => {
  const kustomization = parse(read("k8s/kustomization.yaml"));
  const objects = (kustomization.resources as string[]).flatMap((file) =>
    parseAllDocuments(read(`k8s/${file}`)).map((doc) => doc.toJS()),
  );
  const deployments = objects.filter((o) => o.kind === "Deployment");
  const services = objects.filter((o) => o.kind === "Service");
  const byComponent = (list: any[], component: string) =>
    list.find((o) => o.metadata.labels["app.kubernetes.io/component"] === component);

  it("holds only objects valid for the Kubernetes API, and a wrong type would not be", () => {
    expect(objects.map((o) => o.kind).sort()).toEqual(["Deployment", "Deployment", "Service", "Service"]);
    for (const o of deployments) expect(() => new Deployment(o).validate()).not.toThrow();
    for (const o of services) expect(() => new Service(o).validate()).not.toThrow();
    const broken = structuredClone(deployments[0]);
    broken.spec.template.spec.containers[0].ports[0].containerPort = "four thousand";
    expect(() => new Deployment(broken).validate()).toThrow(/containerPort/);
  });

  it("probes the web instances' readiness at /readyz and their liveness at /healthz", () => {
    const web = byComponent(deployments, "web").spec.template.spec.containers[0];
    expect(web.readinessProbe.httpGet.path).toBe("/readyz");
    expect(web.livenessProbe.httpGet.path).toBe("/healthz");
    const api = byComponent(deployments, "api").spec.template.spec.containers[0];
    expect(api.command).toEqual(["node", "api/main.ts"]);
    // The API listens once migrated: its /healthz answering means ready.
    expect(api.readinessProbe.httpGet.path).toBe("/healthz");
    expect(api.livenessProbe.httpGet.path).toBe("/healthz");
  });

  it("rolls out one new pod at a time, never below the running count, and drains before SIGTERM", () => {
    for (const d of deployments) {
      expect(d.spec.strategy.rollingUpdate).toEqual({ maxSurge: 1, maxUnavailable: 0 });
      expect(d.spec.replicas).toBeGreaterThanOrEqual(2);
      const container = d.spec.template.spec.containers[0];
      expect(container.startupProbe).toBeDefined();
      expect(container.lifecycle.preStop).toBeDefined();
      expect(d.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(15);
    }
  });

  it("takes secrets from the Secret only, runs as the image's non-root user, and wires each Service to its pods", () => {
    for (const d of deployments) {
      const spec = d.spec.template.spec;
      expect(spec.securityContext.runAsNonRoot).toBe(true);
      const env: any[] = spec.containers[0].env;
      for (const name of ["SESSION_SECRET", "DATABASE_URL", "SMTP_URL", "METRICS_TOKEN"]) {
        const entry = env.find((e) => e.name === name);
        if (entry) expect(entry.valueFrom.secretKeyRef.name, name).toBe("healthbook");
      }
      const service = byComponent(services, d.metadata.labels["app.kubernetes.io/component"]);
      expect(d.spec.selector.matchLabels).toEqual(service.spec.selector);
      expect(d.spec.template.metadata.labels).toMatchObject(service.spec.selector);
      const portNames = spec.containers[0].ports.map((p: any) => p.name);
      for (const port of service.spec.ports) expect(portNames).toContain(port.targetPort);
      expect(spec.containers[0].image.split(":")[0]).toBe(kustomization.images[0].name);
    }
    const webEnv: any[] = byComponent(deployments, "web").spec.template.spec.containers[0].env;
    const apiService = byComponent(services, "api");
    expect(webEnv.find((e) => e.name === "API_URL").value).toBe(
      `http://${apiService.metadata.name}:${apiService.spec.ports[0].port}`,
    );
    expect(webEnv.find((e) => e.name === "DATABASE_URL")).toBeUndefined();
  });
});
