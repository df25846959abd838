import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// `npm run bench`: runs every tests/bench/*.bench.ts and writes the numbers, with the budgets of
// DESIGN.md section 7 beside them, to docs/benchmarks.md. Budgets are reported, never asserted.

export interface BenchResult {
  name: string;
  value: number;
  unit: 'ms' | 'KB' | 'KB gzip' | 'req/s' | 'score';
  /** The budget in the same unit; a result over it is marked (for a score: under it). */
  budget?: number;
  note?: string;
}

export type Bench = () => Promise<BenchResult[]>;

/** Median of `runs` timings of fn, in milliseconds, after `warmup` untimed runs. */
export async function median(fn: () => unknown, runs = 20, warmup = 3): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)] * 100) / 100;
}

async function main() {
  const dir = path.dirname(new URL(import.meta.url).pathname);
  const only = process.argv[2];
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only)))
    .sort();
  const sections: string[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as {
      default: Bench;
      title?: string;
    };
    console.log(`running ${file}…`);
    const results = await mod.default();
    const rows = results.map((r) => {
      const over = r.budget !== undefined && (r.unit === 'score' ? r.value < r.budget : r.value > r.budget);
      const budget = r.budget === undefined ? '' : `${r.budget} ${r.unit}`;
      return `| ${r.name} | ${r.value} ${r.unit} | ${budget} | ${over ? 'OVER' : r.budget === undefined ? '' : 'ok'} | ${r.note ?? ''} |`;
    });
    sections.push(
      `## ${mod.title ?? file}\n\n| measure | result | budget | | note |\n|---|---|---|---|---|\n${rows.join('\n')}\n`,
    );
    for (const r of results)
      console.log(
        `  ${r.name}: ${r.value} ${r.unit}${r.budget !== undefined ? ` (budget ${r.budget})` : ''}`,
      );
  }
  const out = path.resolve(dir, '../../docs/benchmarks.md');
  const header = `# Benchmarks\n\nWritten by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} (${process.version}, ${process.platform}, 2 cores). Budgets from DESIGN.md section 7.\n\n`;
  if (only && fs.existsSync(out)) {
    // A partial run replaces only its own sections.
    let text = fs.readFileSync(out, 'utf8');
    for (const s of sections) {
      const title = s.split('\n')[0];
      const start = text.indexOf(title);
      if (start >= 0) {
        const next = text.indexOf('\n## ', start + 1);
        text = text.slice(0, start) + s + (next >= 0 ? text.slice(next + 1) : '');
      } else text += `\n${s}`;
    }
    fs.writeFileSync(out, text);
  } else fs.writeFileSync(out, header + sections.join('\n'));
  console.log(`wrote ${out}`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
