import v8 from 'node:v8';
import vm from 'node:vm';

// A download's garbage, collected while it runs (docs/decisions/reports.md, "Memory of the
// downloads"). On PostgreSQL the rows of each page arrive over several turns of the event loop, live
// through young-generation collections and are promoted to the old generation, which V8 lets grow by
// hundreds of megabytes before its first full collection: a download of 100 000 respondents grew
// the process by 240–370 MB, nearly all of it garbage (7–22 MB was live after a full collection). A
// full collection when the heap has grown GROWTH (32 MB) past the last one keeps the growth near that, at
// the cost of one pause of tens of milliseconds per GROWTH of rows read.

const GROWTH = 32 * 1024 * 1024;

let collect: (() => void) | null | undefined;

/** V8's full collection, made callable once (as --expose-gc would); null if V8 refuses. */
function collector(): (() => void) | null {
  if (collect === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      collect = vm.runInNewContext('gc') as () => void;
    } catch {
      collect = null;
    }
  }
  return collect;
}

const used = () => v8.getHeapStatistics().used_heap_size;

/** A check to call between pages: collects when the heap has grown GROWTH since the last time. */
export function heapGuard(growth = GROWTH): () => void {
  let base = used();
  return () => {
    if (used() - base < growth) return;
    collector()?.();
    base = used();
  };
}
