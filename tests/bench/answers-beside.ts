import { fork } from 'node:child_process';
import fs from 'node:fs';
import { setPriority } from 'node:os';
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { TestServer } from '../server/helpers';
import { insertSurveyProject } from '../server/survey-fixtures';
import { SURVEY_LIMITS } from '../../server/routes/survey';
import { benchContent, startRespondents } from './survey-answers.bench';
import type { DownloadMessage, Fetched, StartMessage } from './answers-client';

// Respondents answering beside something else the bench measures (a download): a crowd's answers
// arriving at a fixed mean rate in a process of its own (answers-client.ts), each request the next
// page of one of the started respondents (a write), as survey-answers.bench.ts walks them; and the
// event loop's longest delay meanwhile (monitorEventLoopDelay at a 10 ms resolution: the longest gap
// between its ticks, so a stall of 200 ms reads ≈ 210), and the most CPU time the main thread spent
// between two ticks of a 10 ms timer (process.threadCpuUsage): on a shared machine the first also
// counts the time the system gave the process no core, the second only what the process itself kept
// the loop busy with. The rate is fixed (not as fast as the server goes), and an answer's latency
// runs from when it was due, so it says how long a respondent waited, a stall's queue included.

export interface AnswerFigures {
  p99: number;
  perSecond: number;
  answered: number;
  failed: number;
}

/**
 * A stall taken apart: the main thread's CPU time in it (garbage collections included, also given
 * alone) and its time runnable but waiting for a core (the kernel's run-queue delay, Linux).
 */
export interface GapParts {
  ms: number;
  cpuMs: number;
  gcMs: number;
  waitedMs: number;
}

/** The main thread's time runnable but not running so far (ms; 0 where /proc has no schedstat). */
function runQueueMs(): number {
  try {
    // schedstat: time on a CPU, time waiting on a run queue, time slices (ns). The main thread's id is the pid.
    const fields = fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ');
    return Number(fields[1]) / 1e6;
  } catch {
    return 0;
  }
}

export interface Beside {
  /** Ends the respondents' process. */
  close(): void;
  /** Reads a download from the respondents' process (never the server's), as a browser would. */
  download(url: string, token: string): Promise<Fetched>;
  /** Starts the answers (and the event loop's watch); `stop` ends both and gives their figures. */
  start(): {
    stop: () => Promise<{
      answers: AnswerFigures;
      longestDelayMs: number;
      longestBusyMs: number;
      /** The main thread's longest garbage collection meanwhile (its pause, wall time). */
      longestGcMs: number;
      /** The longest gap between two ticks of a 10 ms timer, less the 10 ms, and what filled it. */
      longestGap: GapParts;
    }>;
  };
}

/** Starts `batches` × 4 000 respondents of a 30-page survey to answer at `rate` a second over at most `connections`. */
export async function answersBeside(
  server: TestServer,
  opts: { batches: number; rate: number; connections: number },
): Promise<Beside> {
  SURVEY_LIMITS.answerPerAddress = 1e9;
  const walkers: { token: string; at: number }[] = [];
  for (let b = 0; b < opts.batches; b++) {
    const { pid } = await insertSurveyProject(server, benchContent());
    const { tokens } = await startRespondents(server, pid);
    walkers.push(...tokens.flat().map((token) => ({ token, at: 0 })));
  }
  // The respondents' load generator runs in a process of its own, at a lower priority, as devices
  // elsewhere would (answers-client.ts); it keeps the walkers' pages between runs.
  const client = fork(fileURLToPath(new URL('./answers-client.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
  });
  setPriority(client.pid!, 10);
  client.send({ init: walkers });
  /** Sends a message to the respondents' process and takes its answer, the message carrying `key`. */
  const ask = <T>(message: object, key: 'result' | 'fetched') =>
    new Promise<T>((resolve) => {
      const take = (m: Record<string, unknown>) => {
        if (!(key in m)) return;
        client.off('message', take);
        resolve(m[key] as T);
      };
      client.on('message', take);
      client.send(message);
    });
  return {
    close: () => client.disconnect(),
    download: (url, token) => {
      const asked: DownloadMessage = { url, token };
      return ask<Fetched>({ download: asked }, 'fetched');
    },
    start() {
      const loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      const cpu = () => {
        const u = process.threadCpuUsage();
        return (u.user + u.system) / 1000;
      };
      const gcs: { at: number; ms: number }[] = [];
      const gcWatch = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) gcs.push({ at: e.startTime, ms: e.duration });
      });
      gcWatch.observe({ entryTypes: ['gc'] });
      let last = { at: performance.now(), cpu: cpu(), waited: runQueueMs() };
      let longestBusyMs = 0;
      let worst = { from: 0, to: 0, cpuMs: 0, waitedMs: 0 };
      const probe = setInterval(() => {
        const now = { at: performance.now(), cpu: cpu(), waited: runQueueMs() };
        longestBusyMs = Math.max(longestBusyMs, now.cpu - last.cpu);
        if (now.at - last.at > worst.to - worst.from)
          worst = {
            from: last.at,
            to: now.at,
            cpuMs: now.cpu - last.cpu,
            waitedMs: now.waited - last.waited,
          };
        last = now;
      }, 10);
      const started: StartMessage = {
        url: `${server.url}/api/v1/service/survey/answer`,
        rate: opts.rate,
        connections: opts.connections,
      };
      client.send({ start: started });
      return {
        async stop() {
          loop.disable();
          clearInterval(probe);
          gcWatch.disconnect();
          const answers = await ask<AnswerFigures>({ stop: true }, 'result');
          const gapMs = worst.to - worst.from - 10;
          return {
            answers,
            // monitorEventLoopDelay records nothing when the loop is blocked from before its first
            // tick to the end (a download written whole on the main thread): the probe's gap does.
            longestDelayMs: Math.round(Math.max(loop.max / 1e6, gapMs)),
            longestBusyMs: Math.round(longestBusyMs),
            longestGcMs: Math.round(Math.max(0, ...gcs.map((g) => g.ms))),
            longestGap: {
              ms: Math.round(gapMs),
              cpuMs: Math.round(worst.cpuMs),
              gcMs: Math.round(
                gcs
                  .filter((g) => g.at < worst.to && g.at + g.ms > worst.from)
                  .reduce((sum, g) => sum + Math.min(g.at + g.ms, worst.to) - Math.max(g.at, worst.from), 0),
              ),
              waitedMs: Math.round(worst.waitedMs),
            },
          };
        },
      };
    },
  };
}
