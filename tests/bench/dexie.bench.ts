import http from 'node:http';
import path from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { AppDB } from '../../src/db/AppDB';
import { writeDraft } from '../../src/db/drafts';
import { edit, openDoc } from '../../src/domain/content/history';
import { BENCH_PROJECT, bigProject } from '../unit/content-fixtures';
import { median, type BenchResult } from './run';

// One autosave of one change of a 1 000-question project: the editor's Dexie transaction (the
// draft and its change-log row), in Node on fake-indexeddb and in Chromium on real IndexedDB.
// The Chromium page also reports the rules check and an edit + undo as the browser runs them.

export const title = 'Editor autosave to Dexie (1 000 questions)';

async function inNode(): Promise<number> {
  const db = new AppDB('bench-node', { indexedDB: new IDBFactory(), IDBKeyRange });
  const content = bigProject();
  const project = BENCH_PROJECT;
  let doc = openDoc(content);
  const qid = content.questionnaires[0].blocks[25].questions[10].id;
  let seq = 0;
  const result = await median(
    async () => {
      seq++;
      doc = edit(doc, { type: 'question.update', questionId: qid, patch: { text: `t${seq}` } })!.doc;
      await writeDraft(db, {
        draft: {
          pid: 1,
          userId: 1,
          content: doc.content,
          baseVersion: 1,
          updatedAt: Date.now(),
          dirty: true,
          project,
        },
        rows: [{ pid: 1, seq, code: '008', at: Date.now(), payload: { label: `t${seq}`, kind: 'edit' } }],
        clearUpTo: null,
      });
    },
    20,
    3,
  );
  db.close();
  return result;
}

async function inChromium(): Promise<{ autosave: number; rules: number; editUndo: number }> {
  const bundle = await build({
    entryPoints: [path.join(path.dirname(new URL(import.meta.url).pathname), 'dexie-page.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    target: 'es2022',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const js = bundle.outputFiles[0].text;
  const server = http.createServer((req, res) => {
    if (req.url === '/bench.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(js);
    else
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>bench</title><script src="/bench.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    return await page.evaluate(() =>
      (
        window as unknown as {
          runBench: () => Promise<{ autosave: number; rules: number; editUndo: number }>;
        }
      ).runBench(),
    );
  } finally {
    await browser.close();
    server.close();
  }
}

export default async function dexieBench(): Promise<BenchResult[]> {
  const node = await inNode();
  const chrome = await inChromium();
  return [
    { name: 'autosave of one change (Node, fake-indexeddb)', value: node, unit: 'ms', budget: 20 },
    { name: 'autosave of one change (Chromium, IndexedDB)', value: chrome.autosave, unit: 'ms', budget: 20 },
    { name: 'rules: whole check (Chromium)', value: chrome.rules, unit: 'ms', budget: 10 },
    { name: 'one edit + undo (Chromium)', value: chrome.editUndo, unit: 'ms', budget: 16 },
  ];
}
