#!/usr/bin/env node
/**
 * Checks the deployment files in deploy/ (part of `npm run lint`), offline:
 * - every Kubernetes manifest in deploy/kubernetes and deploy/kind against the Kubernetes API's JSON schemas
 *   (kubernetes-models: the schemas ship inside the npm package), and that each container runs non-root
 *   on a read-only root filesystem;
 * - the Containerfile with dockerfile-utils (the Dockerfile language server's checks), and the rules that
 *   matter for this image, which no maintained npm linter checks: every base image pinned to an exact
 *   version (x.y.z or a digest), the last USER not root, no ENV or ARG giving a secret-looking name a value,
 *   no COPY or ADD of a key file;
 * - deploy/alerts.yaml: Prometheus rule groups, each rule with a name and an expression.
 * Exits 1 and names each problem's file and place when one is found.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validate as validateDockerfile } from 'dockerfile-utils';
import { parseAllDocuments, parse } from 'yaml';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';

/** The kinds the deployment files may hold, by apiVersion then kind. */
const MODELS = {
  v1: { ConfigMap, Secret, Service },
  'apps/v1': { Deployment, StatefulSet },
  'policy/v1': { PodDisruptionBudget },
};

/** The pod template's containers (init ones too) of a workload, else none. */
function containersOf(doc) {
  const spec = doc?.spec?.template?.spec;
  if (!spec) return [];
  return [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
}

/** Problems of one manifest file's text (several documents allowed), each as `<file>: <place>: <what>`. */
export function checkManifests(text, file) {
  const problems = [];
  const docs = parseAllDocuments(text);
  docs.forEach((d, i) => {
    const at = `${file}: document ${i + 1}`;
    if (d.errors.length > 0) {
      for (const e of d.errors) problems.push(`${at}: not YAML: ${e.message.split('\n')[0]}`);
      return;
    }
    const obj = d.toJS();
    if (obj === null || obj === undefined) return;
    const Model = MODELS[obj.apiVersion]?.[obj.kind];
    if (!Model) {
      problems.push(
        `${at}: ${obj.apiVersion ?? '(no apiVersion)'} ${obj.kind ?? '(no kind)'} is not a kind this check knows`,
      );
      return;
    }
    const name = `${obj.kind} ${obj.metadata?.name ?? '(no name)'}`;
    try {
      new Model(obj).validate();
    } catch (err) {
      const errors = err?.errors ?? [{ instancePath: '', message: String(err?.message ?? err) }];
      for (const e of errors) problems.push(`${at} (${name}): ${e.instancePath || '/'} ${e.message}`);
    }
    const podSecurity = obj.spec?.template?.spec?.securityContext ?? {};
    for (const c of containersOf(obj)) {
      const sc = c.securityContext ?? {};
      const nonRoot =
        (sc.runAsNonRoot ?? podSecurity.runAsNonRoot) === true &&
        (sc.runAsUser ?? podSecurity.runAsUser) !== 0;
      if (!nonRoot)
        problems.push(`${at} (${name}): container ${c.name} may run as root (runAsNonRoot: true)`);
      if (sc.readOnlyRootFilesystem !== true)
        problems.push(
          `${at} (${name}): container ${c.name} has a writable root filesystem (readOnlyRootFilesystem: true)`,
        );
    }
  });
  return problems;
}

/** A base image reference pinned to an exact version: a digest, or a tag starting with x.y.z. */
const PINNED = /(@sha256:[0-9a-f]{64}$)|(:\d+\.\d+\.\d+([-.][\w.-]+)?$)/;
/** Names that hold a secret when given a value; `…_FILE` names a file, which is how a secret should come. */
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)S?$/i;
/** Files that are keys or secrets: never copied into a layer. */
const KEY_FILE = /(\.(key|pem|p12|pfx)$)|(^|\/)\.env$|(^|\/)(id_rsa|id_ed25519)$|api[-_]?key|secret/i;

/** The instructions of a Containerfile: continuation lines joined, comments and blank lines dropped. */
function instructions(text) {
  const out = [];
  let current = '';
  let line = 0;
  text.split('\n').forEach((raw, i) => {
    const trimmed = raw.trim();
    if (current === '' && (trimmed === '' || trimmed.startsWith('#'))) return;
    if (current === '') line = i + 1;
    if (trimmed.endsWith('\\')) {
      current += `${trimmed.slice(0, -1)} `;
      return;
    }
    current += trimmed;
    const [keyword = '', ...rest] = current.split(/\s+/);
    out.push({ line, keyword: keyword.toUpperCase(), args: rest.join(' ') });
    current = '';
  });
  return out;
}

/** `NAME=value` pairs (or the legacy `NAME value`) of an ENV or ARG instruction. */
function assignments(keyword, args) {
  const pairs = [...args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|'[^']*'|\S*)/g)].map((m) => [
    m[1],
    m[2].replace(/^["']|["']$/g, ''),
  ]);
  if (pairs.length > 0) return pairs;
  const [name, ...value] = args.split(/\s+/);
  return keyword === 'ENV' && name ? [[name, value.join(' ')]] : name ? [[name, '']] : [];
}

/** Problems of a Containerfile's text, each as `<file>:<line>: <what>`. */
export function checkContainerfile(text, file = 'Containerfile') {
  const problems = validateDockerfile(text).map(
    (d) => `${file}:${d.range.start.line + 1}: ${d.message} (dockerfile-utils)`,
  );
  const stages = new Set();
  let user = null;
  for (const { line, keyword, args } of instructions(text)) {
    if (keyword === 'FROM') {
      const words = args.split(/\s+/).filter((w) => !w.startsWith('--'));
      const image = words[0] ?? '';
      if (words[1]?.toUpperCase() === 'AS' && words[2]) stages.add(words[2].toLowerCase());
      if (!stages.has(image.toLowerCase()) && image !== 'scratch' && !PINNED.test(image))
        problems.push(
          `${file}:${line}: base image ${image} is not pinned to an exact version (x.y.z or @sha256:…)`,
        );
      // Each stage starts as the base image's user: root unless it says otherwise.
      user = null;
    } else if (keyword === 'USER') {
      user = { line, name: args.split(':')[0].trim() };
    } else if (keyword === 'ENV' || keyword === 'ARG') {
      for (const [name, value] of assignments(keyword, args)) {
        if (SECRET_NAME.test(name) && value !== '')
          problems.push(
            `${file}:${line}: ${keyword} ${name} gives a secret-looking name a value: it stays in the image's layers; mount it as a file at run time`,
          );
      }
    } else if (keyword === 'COPY' || keyword === 'ADD') {
      const words = args.split(/\s+/).filter((w) => !w.startsWith('--'));
      for (const src of words.slice(0, -1)) {
        if (KEY_FILE.test(src))
          problems.push(`${file}:${line}: ${keyword} ${src} copies a key or secret file into a layer`);
      }
    }
  }
  if (!user || user.name === 'root' || user.name === '0')
    problems.push(`${file}: the image runs as root: end with USER and a non-root user (e.g. USER 1000:1000)`);
  return problems;
}

/** Problems of a Prometheus rules file's text. */
export function checkAlerts(text, file = 'alerts.yaml') {
  let doc;
  try {
    doc = parse(text);
  } catch (err) {
    return [`${file}: not YAML: ${String(err.message).split('\n')[0]}`];
  }
  if (!Array.isArray(doc?.groups) || doc.groups.length === 0) return [`${file}: no rule groups (groups:)`];
  const problems = [];
  doc.groups.forEach((g, i) => {
    if (typeof g?.name !== 'string') problems.push(`${file}: group ${i + 1} has no name`);
    if (!Array.isArray(g?.rules)) problems.push(`${file}: group ${g?.name ?? i + 1} has no rules`);
    for (const [j, r] of (g?.rules ?? []).entries()) {
      if (typeof r?.alert !== 'string' && typeof r?.record !== 'string')
        problems.push(`${file}: group ${g?.name}, rule ${j + 1} has neither alert nor record`);
      if (typeof r?.expr !== 'string' || r.expr.trim() === '')
        problems.push(`${file}: group ${g?.name}, rule ${r?.alert ?? j + 1} has no expr`);
    }
  });
  return problems;
}

/** Every problem of the deploy/ folder of the repository at `root`. */
export function lintDeploy(root) {
  const deploy = join(root, 'deploy');
  const rel = (f) => relative(root, f).split('\\').join('/');
  const problems = [];
  for (const dir of [join(deploy, 'kubernetes'), join(deploy, 'kind')]) {
    const manifests = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f));
    if (manifests.length === 0) problems.push(`${rel(dir)}: no manifest`);
    for (const f of manifests)
      problems.push(...checkManifests(readFileSync(join(dir, f), 'utf8'), rel(join(dir, f))));
  }
  const containerfile = join(deploy, 'Containerfile');
  problems.push(...checkContainerfile(readFileSync(containerfile, 'utf8'), rel(containerfile)));
  const alerts = join(deploy, 'alerts.yaml');
  problems.push(...checkAlerts(readFileSync(alerts, 'utf8'), rel(alerts)));
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(fileURLToPath(import.meta.url), '..', '..'));
  const problems = lintDeploy(root);
  if (problems.length > 0) {
    process.stderr.write(
      `lint-deploy: ${problems.length} problem(s):\n${problems.map((p) => `  ${p}\n`).join('')}`,
    );
    process.exit(1);
  }
  process.stdout.write('lint-deploy: manifests, Containerfile and alerts valid\n');
}
