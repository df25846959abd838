// The SPSS system file format (.sav), written by hand (docs/decisions/reports.md, "The SPSS file"):
// no maintained npm package writes it with long strings, UTF-8 and a streamed body. The layout
// follows the PSPP developers' guide, "System File Format": a header, one variable record per
// variable (and per 8 bytes of a string past the first), value labels, the extension records
// (machine integer and float info, very long strings, character encoding "UTF-8"), the dictionary's
// end, then the cases in SPSS's bytecode compression. Little-endian throughout.
//
// A case is a list of values in variable order: a number (null for system-missing) or a string
// (null for empty). Strings are written in UTF-8 and cut to their variable's width in bytes, never
// inside a character.

export type SavVariable =
  | {
      type: 'number';
      /** At most 8 bytes, ASCII, unique (our names are Q1, Q3_1, GENDER…). */
      name: string;
      label: string;
      /** F (the default) or DATETIME (seconds since 14 Oct 1582, SPSS's epoch). */
      format?: 'F' | 'DATETIME';
      decimals?: number;
      values?: [number, string][];
    }
  | { type: 'string'; name: string; label: string; width: number };

export type SavValue = number | string | null;

/** Seconds from SPSS's epoch (14 October 1582) to the Unix epoch. */
export const SPSS_EPOCH_OFFSET = 12_219_379_200;
/** The widest string SPSS takes. */
export const MAX_STRING_WIDTH = 32_767;
const BIAS = 100;
const SYSMIS = -Number.MAX_VALUE;

const utf8 = (s: string) => Buffer.from(s, 'utf8');

/** The first `max` bytes of `s` in UTF-8, never cutting a character. */
export function cutUtf8(s: string, max: number): Buffer {
  const b = utf8(s);
  if (b.length <= max) return b;
  let end = max;
  // Step back over continuation bytes (10xxxxxx) to the start of the cut character.
  while (end > 0 && (b[end] & 0xc0) === 0x80) end--;
  return b.subarray(0, end);
}

/** A string of `n` bytes: `s` cut or padded with spaces. */
function fixed(s: string | Buffer, n: number): Buffer {
  const out = Buffer.alloc(n, 0x20);
  (typeof s === 'string' ? cutUtf8(s, n) : s.subarray(0, n)).copy(out);
  return out;
}

class Bytes {
  private parts: Buffer[] = [];
  int32(...ns: number[]) {
    const b = Buffer.alloc(4 * ns.length);
    ns.forEach((n, i) => b.writeInt32LE(n, 4 * i));
    this.parts.push(b);
    return this;
  }
  float64(...ns: number[]) {
    const b = Buffer.alloc(8 * ns.length);
    ns.forEach((n, i) => b.writeDoubleLE(n, 8 * i));
    this.parts.push(b);
    return this;
  }
  raw(b: Buffer) {
    this.parts.push(b);
    return this;
  }
  done(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** One string segment (a very long string has several, each a variable of the file's dictionary). */
interface Segment {
  width: number;
  /** Bytes of the value this segment carries (255 for every segment of a very long string but the last). */
  carries: number;
}

/** The segments of a string of `width` bytes: one up to 255, else one per 252 bytes of width. */
export function segmentsOf(width: number): Segment[] {
  if (width <= 255) return [{ width, carries: width }];
  const n = Math.ceil(width / 252);
  return Array.from({ length: n }, (_, i) =>
    i < n - 1
      ? { width: 255, carries: 255 }
      : { width: width - (n - 1) * 252, carries: Math.max(0, width - (n - 1) * 255) },
  );
}

const units = (width: number) => Math.ceil(width / 8);

const FORMAT = { A: 1, F: 5, DATETIME: 22 } as const;
const fmt = (type: number, width: number, decimals: number) => (type << 16) | (width << 8) | decimals;

/** Variable label: int32 length, the text padded to a multiple of 4. */
function labelBytes(label: string): Buffer {
  const text = cutUtf8(label, 255);
  return new Bytes()
    .int32(text.length)
    .raw(fixed(text, Math.ceil(text.length / 4) * 4))
    .done();
}

function variableRecord(type: number, name: string, label: string | null, format: number): Buffer {
  const b = new Bytes().int32(2, type, label === null ? 0 : 1, 0, format, format).raw(fixed(name, 8));
  if (label !== null) b.raw(labelBytes(label));
  return b.done();
}

const continuation = () => new Bytes().int32(2, -1, 0, 0, 0, 0).raw(fixed('', 8)).done();

function extension(subtype: number, size: number, data: Buffer): Buffer {
  return new Bytes()
    .int32(7, subtype, size, data.length / size)
    .raw(data)
    .done();
}

/**
 * The file's header and dictionary, up to and including the dictionary's end. `segmentName(k)` names
 * the k-th extra segment of the very long strings (unique, at most 8 bytes).
 */
export function dictionary(
  variables: SavVariable[],
  opts: { label: string; product: string; created: Date },
): Buffer {
  const body = new Bytes();
  let index = 1; // 1-based position of the next variable's first 8-byte unit
  let extra = 0;
  const veryLong: string[] = [];
  const labelled: { values: [number, string][]; index: number }[] = [];
  for (const v of variables) {
    if (v.type === 'number') {
      const format =
        v.format === 'DATETIME'
          ? fmt(FORMAT.DATETIME, 20, 0)
          : fmt(FORMAT.F, 8 + (v.decimals ?? 0), v.decimals ?? 0);
      body.raw(variableRecord(0, v.name, v.label, format));
      if (v.values?.length) labelled.push({ values: v.values, index });
      index++;
      continue;
    }
    const segments = segmentsOf(v.width);
    segments.forEach((s, i) => {
      const name = i === 0 ? v.name : `SEG${++extra}`;
      body.raw(variableRecord(s.width, name, i === 0 ? v.label : null, fmt(FORMAT.A, s.width, 0)));
      for (let k = 1; k < units(s.width); k++) body.raw(continuation());
      index += units(s.width);
    });
    if (segments.length > 1) veryLong.push(`${v.name}=${String(v.width).padStart(5, '0')}\0\t`);
  }
  for (const l of labelled) {
    const b = new Bytes().int32(3, l.values.length);
    for (const [value, text] of l.values) {
      const t = cutUtf8(text, 120);
      const cell = Buffer.alloc(Math.ceil((t.length + 1) / 8) * 8, 0x20);
      cell[0] = t.length;
      t.copy(cell, 1);
      b.float64(value).raw(cell);
    }
    body.raw(b.int32(4, 1, l.index).done());
  }
  // Machine integer info: version 1.0.0, IEEE 754 floats, compression 1, little-endian, UTF-8 (65001).
  body.raw(extension(3, 4, new Bytes().int32(1, 0, 0, -1, 1, 1, 2, 65001).done()));
  // Machine floating-point info: system-missing, highest, lowest.
  const lowest = Buffer.from('feffffffffffefff', 'hex');
  body.raw(extension(4, 8, new Bytes().float64(SYSMIS, Number.MAX_VALUE).raw(lowest).done()));
  // Long variable names: without them readers take the short names in lower case (q1, not Q1).
  body.raw(extension(13, 1, utf8(variables.map((v) => `${v.name}=${v.name}`).join('\t'))));
  if (veryLong.length > 0) body.raw(extension(14, 1, utf8(veryLong.join(''))));
  body.raw(extension(20, 1, utf8('UTF-8')));
  body.int32(999, 0);

  const d = opts.created;
  const two = (n: number) => String(n).padStart(2, '0');
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][
    d.getUTCMonth()
  ];
  const header = new Bytes()
    .raw(utf8('$FL2'))
    .raw(fixed(`@(#) SPSS DATA FILE ${opts.product}`, 60))
    // Layout 2, case size in 8-byte units, bytecode compression, no weight, cases not known (streamed).
    .int32(2, index - 1, 1, 0, -1)
    .float64(BIAS)
    .raw(fixed(`${two(d.getUTCDate())} ${month} ${two(d.getUTCFullYear() % 100)}`, 9))
    .raw(fixed(`${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`, 8))
    .raw(fixed(opts.label, 64))
    .raw(Buffer.alloc(3))
    .done();
  return Buffer.concat([header, body.done()]);
}

/**
 * SPSS's bytecode compression: 8 one-byte codes, then the 8-byte units that codes of 253 stand for.
 * 1–251: the integer code − 100; 253: the unit follows; 254: 8 spaces; 255: system-missing; 0: padding.
 * Blocks run on across cases; `flush` pads the last one.
 */
export class CaseWriter {
  /** The block being filled: 8 codes, then up to 8 units of data. */
  private block = Buffer.alloc(72);
  private n = 0;
  private units = 0;
  /** Complete blocks not yet taken; one growing buffer, not a buffer per value. */
  private out = Buffer.alloc(64 * 1024);
  private size = 0;
  private readonly segments: (Segment[] | null)[];

  constructor(private readonly variables: SavVariable[]) {
    this.segments = variables.map((v) => (v.type === 'string' ? segmentsOf(v.width) : null));
  }

  private endBlock() {
    if (this.n === 0) return;
    this.block.fill(0, this.n, 8);
    const len = 8 + 8 * this.units;
    if (this.size + len > this.out.length) {
      const bigger = Buffer.alloc(Math.max(this.out.length * 2, this.size + len));
      this.out.copy(bigger, 0, 0, this.size);
      this.out = bigger;
    }
    this.block.copy(this.out, this.size, 0, len);
    this.size += len;
    this.n = 0;
    this.units = 0;
  }
  private code(c: number) {
    this.block[this.n++] = c;
    if (this.n === 8) this.endBlock();
  }
  /** The 8 bytes of src[from, end) starting at `at`, padded with spaces: 254 if all spaces, else 253 and the unit. */
  private stringUnit(src: Buffer, at: number, end: number) {
    const slot = 8 + 8 * this.units;
    let spaces = true;
    for (let k = 0; k < 8; k++) {
      const c = at + k < end ? src[at + k] : 0x20;
      this.block[slot + k] = c;
      if (c !== 0x20) spaces = false;
    }
    if (spaces) return this.code(254);
    this.units++;
    this.code(253);
  }

  /** Adds one case (values in variable order). */
  add(values: SavValue[]): void {
    for (let i = 0; i < this.variables.length; i++) {
      const v = this.variables[i];
      const x = values[i];
      if (v.type === 'number') {
        if (typeof x !== 'number' || !Number.isFinite(x)) this.code(255);
        else if (Number.isInteger(x) && x >= 1 - BIAS && x <= 251 - BIAS) this.code(x + BIAS);
        else {
          this.block.writeDoubleLE(x, 8 + 8 * this.units);
          this.units++;
          this.code(253);
        }
        continue;
      }
      const bytes = typeof x === 'string' && x !== '' ? cutUtf8(x, v.width) : EMPTY;
      let at = 0;
      for (const s of this.segments[i]!) {
        const end = Math.min(at + s.carries, bytes.length);
        for (let k = 0; k < units(s.width); k++) this.stringUnit(bytes, at + 8 * k, end);
        at += s.carries;
      }
    }
  }

  /** Bytes written so far and not yet taken. */
  get pending(): number {
    return this.size;
  }

  /** Takes the complete blocks written so far (with `end`, the last one padded too). */
  take(end = false): Buffer {
    if (end) this.endBlock();
    const b = Buffer.from(this.out.subarray(0, this.size));
    this.size = 0;
    return b;
  }
}

const EMPTY = Buffer.alloc(0);
