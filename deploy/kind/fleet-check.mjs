#!/usr/bin/env node
/**
 * The 3-executor check in a kind cluster (the CI workflow's `kind` job; never in .ci/run): with the sandbox
 * (deploy/kind/sandbox.yaml) and deploy/kubernetes/executor.yaml applied, an automation due every minute
 * and three executor pods, it checks over several real minutes that every occurrence gave one run, started
 * by one executor (the starts counted by all pods add up to the sandbox's runs: no duplicate), that none
 * failed, and that after `postdesk executor drain` in one pod (its preStop hook's command) that pod starts
 * no run while the others go on. Reads figures with kubectl exec (the sandbox's control API answers only
 * its own loopback). Exits 1 with the reason when a check fails.
 */
import { execFileSync } from 'node:child_process';

const MINUTES = Number(process.env.KIND_CHECK_MINUTES ?? 4);
const PODS = ['postdesk-executor-0', 'postdesk-executor-1', 'postdesk-executor-2'];
const AUTOMATION = '0b6e7f52-8a3c-4d1e-9f20-3b4c5d6e7f80';

const kubectl = (...args) => execFileSync('kubectl', args, { encoding: 'utf8' });
const fetchIn = (target, container, url) =>
  kubectl(
    'exec',
    target,
    '-c',
    container,
    '--',
    'node',
    '-e',
    `fetch(${JSON.stringify(url)}).then((r) => r.text()).then((t) => process.stdout.write(t))`,
  );
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function sandboxRuns() {
  const state = JSON.parse(
    fetchIn('deploy/postdesk-sandbox', 'sandbox', 'http://127.0.0.1:4010/_sandbox/state'),
  );
  return state.runs ?? {};
}

function started(pod) {
  const text = fetchIn(pod, 'executor', 'http://127.0.0.1:9464/metrics');
  const series = `postdesk_executor_runs_started_total{automation_id="${AUTOMATION}"} `;
  const line = text.split('\n').find((l) => l.startsWith(series));
  return line ? Number(line.slice(series.length)) : 0;
}

function fail(message) {
  console.error(`kind fleet check: ${message}`);
  process.exit(1);
}

const total = (runs) => Object.values(runs).reduce((n, v) => n + v, 0);

console.log(`waiting ${MINUTES} minute(s) of occurrences…`);
await sleep(MINUTES * 60_000);
let runs = sandboxRuns();
let starts = PODS.map(started);
console.log(`sandbox runs ${JSON.stringify(runs)}; starts by pod ${starts.join(', ')}`);
if ((runs.completed ?? 0) < MINUTES - 1)
  fail(`only ${runs.completed ?? 0} runs completed in ${MINUTES} minutes`);
if (runs.failed) fail(`${runs.failed} run(s) failed`);
// Pod metrics count from each process's start; a restarted pod would count fewer, never more.
const sum = starts.reduce((a, b) => a + b, 0);
if (sum > total(runs)) fail(`the pods started ${sum} runs for ${total(runs)} on the service: a duplicate`);

const drain = JSON.parse(
  kubectl(
    'exec',
    PODS[0],
    '-c',
    'executor',
    '--',
    'node',
    '/app/bin/postdesk.js',
    '--json',
    'executor',
    'drain',
    '--port',
    '9464',
    '--wait',
    '60',
  ),
);
console.log(`drained ${PODS[0]}: ${JSON.stringify(drain)}`);
if (drain.state !== 'stopping' || drain.active_runs !== 0) fail('the drain did not finish');
const before = started(PODS[0]);
const completedBefore = runs.completed ?? 0;
await sleep(3 * 60_000);
runs = sandboxRuns();
starts = PODS.map(started);
console.log(`after the drain: sandbox runs ${JSON.stringify(runs)}; starts by pod ${starts.join(', ')}`);
if (starts[0] !== before) fail(`${PODS[0]} started ${starts[0] - before} run(s) after it was drained`);
if ((runs.completed ?? 0) < completedBefore + 2)
  fail('the other executors did not take the next occurrences');
if (runs.failed) fail(`${runs.failed} run(s) failed`);
console.log('kind fleet check: every occurrence ran once; the drained executor started none after its drain');
