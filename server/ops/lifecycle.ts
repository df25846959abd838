// Where this process is in its life, as the probes (./probes.ts) and the graceful stop
// (./shutdown.ts) see it. One per built app: tests run several apps in one process.

export class Lifecycle {
  /** From SIGTERM on: /readyz answers 503 while the server still serves everything else. */
  stopping = false;
  /** When the stop's time is up (unix ms): the callback sender releases the claims still out then. */
  deadline = Number.POSITIVE_INFINITY;
}
