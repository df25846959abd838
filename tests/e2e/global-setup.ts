import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    distDir: string;
  }
}

// Builds the SPA once per e2e run into its own folder (so parallel runs never share a half-written
// dist). E2E_DIST points at an existing build to skip this.
export default async function setup(project: TestProject) {
  if (process.env.E2E_DIST) {
    project.provide('distDir', path.resolve(process.env.E2E_DIST));
    return;
  }
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-e2e-dist-'));
  // Vitest runs with NODE_ENV=test, which would give a development build of React: test what users get.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ logLevel: 'warn', mode: 'production', build: { outDir, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  project.provide('distDir', outDir);
  return () => fs.rmSync(outDir, { recursive: true, force: true });
}
