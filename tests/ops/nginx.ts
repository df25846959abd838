import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { refused } from '../server/child-server';

// Debian's nginx on loopback, run by the tests without root: its own prefix, configuration, logs
// and temporary folders in a temp dir, and deploy/nginx.conf as the documented example has it, with
// only what must differ on a test machine swapped (each swap must match, so a change to the example
// that the tests do not follow fails here, not silently).

const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';
const EXAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../deploy/nginx.conf');

export interface Nginx {
  /** https://127.0.0.1:<port> (a self-signed certificate). */
  url: string;
  port: number;
  dir: string;
  /** The access log: one line per call with the upstreams tried and their statuses. */
  accessLog: () => string;
  errorLog: () => string;
  stop: () => Promise<void>;
}

/** The example's fail_timeout, in ms: how long nginx leaves out a process that failed. */
export function exampleFailTimeoutMs(): number {
  const m = /fail_timeout=(\d+)s/.exec(fs.readFileSync(EXAMPLE, 'utf8'));
  if (!m) throw new Error('deploy/nginx.conf: no fail_timeout');
  return Number(m[1]) * 1000;
}

function swap(conf: string, from: RegExp, to: string): string {
  const matches = conf.match(
    new RegExp(from.source, from.flags.includes('g') ? from.flags : `${from.flags}g`),
  );
  if (matches?.length !== 1)
    throw new Error(`deploy/nginx.conf: expected one match of ${from}, found ${matches?.length ?? 0}`);
  return conf.replace(from, to);
}

/** The example with the test's upstreams, ports and certificate. */
export function exampleFor(upstreams: number[], port: number, redirectPort: number, dir: string): string {
  let conf = fs.readFileSync(EXAMPLE, 'utf8');
  conf = swap(
    conf,
    /^( *)server 10\.0\.0\.11:8080 ([^;]*);\n *server 10\.0\.0\.12:8080 \2;\n/m,
    upstreams.map((p) => `$1server 127.0.0.1:${p} $2;\n`).join(''),
  );
  conf = swap(conf, /listen 80;/, `listen 127.0.0.1:${redirectPort};`);
  conf = swap(conf, /listen 443 ssl http2;/, `listen 127.0.0.1:${port} ssl http2;`);
  conf = swap(
    conf,
    /ssl_certificate \/etc\/ssl\/survey\/fullchain\.pem;/,
    `ssl_certificate ${dir}/cert.pem;`,
  );
  conf = swap(
    conf,
    /ssl_certificate_key \/etc\/ssl\/survey\/privkey\.pem;/,
    `ssl_certificate_key ${dir}/key.pem;`,
  );
  return conf;
}

export async function startNginx(
  upstreams: number[],
  port: number,
  redirectPort: number,
  opts: {
    /** worker_processes (1 unless told: a test needs no more). */
    workers?: number | 'auto';
    /** Changes the example's text before it is written (a bench's variant). */
    edit?: (conf: string) => string;
  } = {},
): Promise<Nginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-nginx-'));
  const openssl = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
    ].concat(['-subj', '/CN=localhost', '-keyout', `${dir}/key.pem`, '-out', `${dir}/cert.pem`]),
    { encoding: 'utf8' },
  );
  if (openssl.status !== 0) throw new Error(`openssl: ${openssl.stderr}`);
  const conf = exampleFor(upstreams, port, redirectPort, dir);
  fs.writeFileSync(path.join(dir, 'survey.conf'), opts.edit ? opts.edit(conf) : conf);
  // Root's workers would run as nobody, who may not enter the temp dir: keep them as root then.
  const user = process.getuid?.() === 0 ? 'user root;\n' : '';
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `${user}worker_processes ${opts.workers ?? 1};
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  log_format upstreams '$request_method $uri $status upstream=[$upstream_addr] statuses=[$upstream_status]';
  access_log ${dir}/access.log upstreams;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/survey.conf;
}
`,
  );
  const args = ['-p', dir, '-c', `${dir}/nginx.conf`, '-e', `${dir}/error.log`];
  const check = spawnSync(NGINX, [...args, '-t'], { encoding: 'utf8' });
  if (check.error) throw new Error(`${NGINX} could not run (Debian package nginx): ${check.error.message}`);
  if (check.status !== 0) throw new Error(`nginx -t: ${check.stderr}`);
  const proc: ChildProcess = spawn(NGINX, args, { stdio: 'ignore' });
  const exited = new Promise<void>((r) => proc.on('exit', () => r()));
  const deadline = Date.now() + 10_000;
  while (await refused(port)) {
    if (proc.exitCode !== null || Date.now() > deadline)
      throw new Error(`nginx did not start: ${fs.readFileSync(`${dir}/error.log`, 'utf8')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const read = (f: string) =>
    fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f), 'utf8') : '';
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    dir,
    accessLog: () => read('access.log'),
    errorLog: () => read('error.log'),
    stop: async () => {
      // SIGQUIT: nginx's graceful stop (SIGTERM is its fast one).
      proc.kill('SIGQUIT');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
