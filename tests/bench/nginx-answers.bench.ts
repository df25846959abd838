import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type TestServer } from '../server/helpers';
import { freePort, startChild, type ChildServer } from '../server/child-server';
import { insertSurveyProject } from '../server/survey-fixtures';
import { startNginx, type Nginx } from '../ops/nginx';
import { benchContent, respondentsInFlight } from './answer-respondents';
import { answerRun } from './answer-walk';
import type { BenchResult } from './run';

// Answers a second through nginx with 1, 2 and 3 server processes on one PostgreSQL (issue 33, part
// 7), on this machine: Debian's nginx with deploy/nginx.conf as tests/ops runs it (TLS on loopback,
// worker_processes auto), the servers as an operator starts them (server/main.ts in child processes,
// TRUST_PROXY=1, each with its own DATA_DIR), 100 autocannon connections answering page by page for
// 4 000 respondents in flight (answer-respondents.ts). The reference of the same run: one server
// answered directly, without nginx, before and after the runs through nginx (their mean is 100 %).
// Every process shares the machine's cores, so the ratios say where
// the limit is: more servers help while the servers' own CPU is the limit, not once the machine's
// cores are all busy (nginx, PostgreSQL, autocannon and the servers together).
// Needs PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL, meant with durable settings) and nginx
// (NGINX=<path>, default /usr/sbin/nginx); skipped without them. BENCH_NGINX_STICKY=1 adds
// `hash $http_x_respondent_token consistent` to the upstream, so that each respondent's answers go to
// one server (a comparison; the example balances round robin).

export const title = 'Operations: answers a second through nginx with 1, 2 and 3 servers on one PostgreSQL';

const IN_FLIGHT = 4000;
const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';

/** The machine's CPU time so far (/proc/stat's first line): busy and total, in clock ticks. */
function machineTicks(): { busy: number; total: number } {
  const [, ...ticks] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  // idle and iowait are the 4th and 5th.
  return { busy: total - ticks[3] - ticks[4], total };
}

/** CPU seconds a process has used so far (Linux: /proc/<pid>/stat, utime + stime in clock ticks). */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function startServers(n: number, databaseUrl: string, dirs: string[]): Promise<ChildServer[]> {
  const servers: ChildServer[] = [];
  for (let i = 0; i < n; i++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-nginx-bench-'));
    dirs.push(dataDir);
    const env = {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      TRUST_PROXY: '1',
      SHUTDOWN_DELAY_MS: '0',
      ADMIN_PASSWORD: 'admin-password-1',
    };
    servers.push(await startChild(await freePort(), env, 120_000, 'tests/bench/nginx-server.ts'));
  }
  return servers;
}

async function stopServers(servers: ChildServer[]) {
  for (const s of servers) s.proc.kill('SIGTERM');
  await Promise.all(servers.map((s) => s.exited));
}

/** One answer run against `servers`, through nginx when `viaNginx`. */
async function measure(setup: TestServer, databaseUrl: string, count: number, viaNginx: boolean) {
  const content = benchContent();
  const { pid } = await insertSurveyProject(setup, content);
  const walkers = await respondentsInFlight(setup.app.db, pid, content, IN_FLIGHT);
  const dirs: string[] = [];
  const servers = await startServers(count, databaseUrl, dirs);
  let nginx: Nginx | null = null;
  try {
    if (viaNginx) {
      const sticky = process.env.BENCH_NGINX_STICKY === '1';
      nginx = await startNginx(
        servers.map((s) => s.port),
        await freePort(),
        await freePort(),
        {
          workers: 'auto',
          edit: sticky
            ? (conf) =>
                conf.replace(/upstream survey_app \{\n/, '$&    hash $http_x_respondent_token consistent;\n')
            : undefined,
        },
      );
    }
    const before = servers.map((s) => cpuSeconds(s.proc.pid!));
    const machine = machineTicks();
    const result = await answerRun(nginx ? nginx.url : servers[0].url, `nginx-${count}`, walkers);
    const serverCpu = servers.reduce((sum, s, i) => sum + cpuSeconds(s.proc.pid!) - before[i], 0);
    const after = machineTicks();
    return {
      ...result,
      serverCpu: (serverCpu * 1000) / Math.max(1, result.requests.total),
      machineBusy: (after.busy - machine.busy) / Math.max(1, after.total - machine.total),
    };
  } finally {
    await nginx?.stop();
    await stopServers(servers);
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }
}

export default async function nginxAnswersBench(): Promise<BenchResult[]> {
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!pgUrl || !fs.existsSync(NGINX)) {
    console.log('  skipped: needs PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL) and nginx');
    return [];
  }
  // An in-process server on a fresh database: the migrations, the projects and their respondents.
  // It serves nothing during the runs.
  const saved = process.env.TEST_DATABASE_URL;
  process.env.TEST_DATABASE_URL = pgUrl;
  const setup = await startServer();
  if (saved === undefined) delete process.env.TEST_DATABASE_URL;
  else process.env.TEST_DATABASE_URL = saved;
  const databaseUrl = setup.config.databaseUrl!;
  const sticky = process.env.BENCH_NGINX_STICKY === '1' ? ', sticky by respondent (hash)' : '';
  const results: BenchResult[] = [];
  try {
    type Measured = Awaited<ReturnType<typeof measure>>;
    const row = (name: string, r: Measured, note = '') => ({
      name,
      value: Math.round(r.requests.average),
      unit: 'req/s' as const,
      note: `${note}p99 ${r.latency.p99} ms; servers' CPU ${r.serverCpu.toFixed(2)} ms an answer; machine's CPU ${Math.round(r.machineBusy * 100)} % busy; ${r['2xx']} answered, ${r.non2xx} not 2xx`,
    });
    // The reference before and after the runs through nginx (the machine's load drifts), their mean
    // the 100 %.
    const first = await measure(setup, databaseUrl, 1, false);
    const behind: [number, Measured][] = [];
    for (const count of [1, 2, 3]) behind.push([count, await measure(setup, databaseUrl, count, true)]);
    const last = await measure(setup, databaseUrl, 1, false);
    const reference = (first.requests.average + last.requests.average) / 2;
    results.push(row('1 server, answered directly (the reference, before)', first));
    for (const [count, r] of behind) {
      const share = Math.round((r.requests.average / Math.max(1, reference)) * 100);
      const name = `${count} server${count > 1 ? 's' : ''} behind nginx${sticky}`;
      results.push(row(name, r, `${share} % of the reference; `));
    }
    results.push(row('1 server, answered directly (the reference, after)', last));
  } finally {
    await setup.close();
  }
  return results;
}
