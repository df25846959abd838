import zlib from 'node:zlib';
import type { FastifyCompressOptions } from '@fastify/compress';

// How @fastify/compress compresses answers (docs/decisions/reads.md). Bodies up to 64 KB are
// compressed in one synchronous call (brotli 4: about 0.3 ms at 64 KB). The plugin's default scales
// with the cores (8 KB on two), and above it builds a stream pipeline per response: a 9 KB page of
// games spent more on the pipeline than on compressing.
export const COMPRESSION: FastifyCompressOptions = {
  global: true,
  threshold: 1024,
  syncThreshold: 64 * 1024,
};

/**
 * A list's page (4–45 KB of JSON), asked for over and over: brotli 1. On the bench's pages it took
 * 40–80 µs against brotli 4's 85–290 µs, for about 100 bytes more (540 against 430 bytes for
 * 20 projects). A route's own options replace the plugin's, hence the spread.
 */
export const PAGE_COMPRESSION: FastifyCompressOptions = {
  ...COMPRESSION,
  brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } },
};
