import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkContainerfile, checkManifests, lintDeploy } from '../../../scripts/lint-deploy.mjs';

/**
 * scripts/lint-deploy.mjs, the lint step over deploy/: the repository's own files pass; a manifest that breaks
 * the Kubernetes schema, or runs as root, and a Containerfile that breaks each documented rule, fail it, with
 * the place named. The script itself is run as `npm run lint` runs it, on a copy with one bad file.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const SCRIPT = join(ROOT, 'scripts/lint-deploy.mjs');
const GOOD_CONTAINERFILE = readFileSync(join(ROOT, 'deploy/Containerfile'), 'utf8');
let tmp: string | undefined;
afterEach(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  tmp = undefined;
});

describe('the deploy/ files', () => {
  it('as committed, have no problem', () => {
    expect(lintDeploy(ROOT)).toEqual([]);
  });
});

describe('a bad manifest', () => {
  const bad = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: broken
spec:
  replicas: three
  selector:
    matchLabels: { app: x }
  template:
    spec:
      containers:
        - image: postdesk-executor:latest
          ports:
            - containerPort: metrics
---
apiVersion: v1
kind: Frobnicator
metadata:
  name: what
`;
  it('fails on the schema, names the place, and on an unknown kind', () => {
    const problems = checkManifests(bad, 'bad.yaml');
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^bad\.yaml: document 1 \(Deployment broken\): \/spec\/replicas must be integer$/,
        ),
        expect.stringMatching(/containers\/0 must have required property name$/),
        expect.stringMatching(/containers\/0\/ports\/0\/containerPort must be integer$/),
        expect.stringMatching(/may run as root/),
        expect.stringMatching(/writable root filesystem/),
        expect.stringMatching(/^bad\.yaml: document 2: v1 Frobnicator is not a kind this check knows$/),
      ]),
    );
  });

  it('makes the script exit 1 with the file named', () => {
    tmp = mkdtempSync(join(tmpdir(), 'postdesk-lint-deploy-'));
    cpSync(join(ROOT, 'deploy'), join(tmp, 'deploy'), { recursive: true });
    expect(spawnSync(process.execPath, [SCRIPT, tmp], { encoding: 'utf8' }).status).toBe(0);
    writeFileSync(join(tmp, 'deploy/kubernetes/extra.yaml'), bad);
    const r = spawnSync(process.execPath, [SCRIPT, tmp], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/deploy\/kubernetes\/extra\.yaml: document 1 \(Deployment broken\)/);
  });
});

describe('a bad Containerfile', () => {
  const bad = `FROM node:24-slim AS build
COPY secrets/api-key /src/
COPY deploy.pem ./
FROM node:latest
ARG GITHUB_TOKEN=ghp_abc
ENV POSTDESK_API_KEY=pd_live_123 POSTDESK_API_KEY_FILE=/run/postdesk/api-key
COPY --from=build /src /app
USER root
ENTRYPOINT ["node"]
HEALTHCHECK CMD
`;
  it('breaks each rule, and each is named with its line', () => {
    const problems = checkContainerfile(bad, 'Containerfile');
    expect(problems).toEqual(
      expect.arrayContaining([
        'Containerfile:1: base image node:24-slim is not pinned to an exact version (x.y.z or @sha256:…)',
        'Containerfile:4: base image node:latest is not pinned to an exact version (x.y.z or @sha256:…)',
        'Containerfile:2: COPY secrets/api-key copies a key or secret file into a layer',
        'Containerfile:3: COPY deploy.pem copies a key or secret file into a layer',
        expect.stringMatching(/^Containerfile:5: ARG GITHUB_TOKEN gives a secret-looking name a value/),
        expect.stringMatching(/^Containerfile:6: ENV POSTDESK_API_KEY gives a secret-looking name a value/),
        'Containerfile: the image runs as root: end with USER and a non-root user (e.g. USER 1000:1000)',
        expect.stringMatching(/^Containerfile:10: .*\(dockerfile-utils\)$/),
      ]),
    );
    // The key's file name is how a secret should come: not a problem.
    expect(problems.join('\n')).not.toMatch(/POSTDESK_API_KEY_FILE/);
  });

  it('a stage without USER runs as root, whatever an earlier stage said', () => {
    const text = GOOD_CONTAINERFILE.replace(/^USER .*$/m, '');
    expect(checkContainerfile(GOOD_CONTAINERFILE)).toEqual([]);
    expect(checkContainerfile(text)).toEqual([
      'Containerfile: the image runs as root: end with USER and a non-root user (e.g. USER 1000:1000)',
    ]);
  });
});
