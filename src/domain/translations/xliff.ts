import { SaxesParser, type SaxesTagNS } from 'saxes';

// XLIFF 2.0 (OASIS, "XLIFF Version 2.0", core only), the translation industry's exchange format:
// one <unit> per text with a stable id, its <source>, and the translator's <target>.
//
// Written by us rather than through the `xliff` package (docs/decisions/translations.md): that package
// keeps only the last <segment> of a unit (a CAT tool splits a text into segments by sentence, so a
// translated file would lose all but its last sentence), writes no xml:space="preserve" (a tool may
// then collapse the spaces and line breaks of a text) and weighs 17.5 KB gzip. The XML itself is
// read by saxes (a strict, namespace-aware XML 1.0 parser, already in the lock through exceljs): no
// hand-written XML parsing, no DTD or external entity is ever expanded.
//
// What the reader takes from a unit: the texts of its segments and ignorables in order (a target's
// `order` attribute honoured), <cp hex="…"/> as its character, the text inside <pc> and <mrk>; the
// standalone codes <ph>, <sc>, <ec>, <sm>, <em> carry no text of ours and are dropped (the unit is
// named in `inlineCodes`, so the screen can say so). Elements of other namespaces (modules, tools'
// extensions) are skipped whole.

export const XLIFF_NS = 'urn:oasis:names:tc:xliff:document:2.0';

export interface XliffUnit {
  /** Stable id (an XML NMTOKEN: letters, digits, '.', '-', '_', ':'). */
  id: string;
  source: string;
  /** null: not translated yet (no <target> written). */
  target: string | null;
  /** Where the text is, for the translator (written as a <note>). */
  note?: string;
}

export interface XliffDocument {
  srcLang: string;
  trgLang: string;
  /** The <file> id (e.g. the project). */
  fileId: string;
  /** A name for the file element's `original` attribute (e.g. the project's name). */
  original?: string;
  units: XliffUnit[];
}

// ---------------------------------------------------------------------------------------------
// Writing

/** Characters XML 1.0 cannot carry even escaped: written as XLIFF's <cp hex="…"/>. */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function escapeText(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;') // a parser turns a raw CR (and CR LF) into LF
    .replace(NOT_XML, (c) => `<cp hex="${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}"/>`);
}

function escapeAttr(s: string): string {
  return s
    .replace(NOT_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;')
    .replace(/\n/g, '&#10;')
    .replace(/\t/g, '&#9;');
}

/** The XLIFF 2.0 text of a document: UTF-8, spaces and line breaks kept (xml:space="preserve"). */
export function writeXliff(doc: XliffDocument): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<xliff xmlns="${XLIFF_NS}" version="2.0" srcLang="${escapeAttr(doc.srcLang)}" trgLang="${escapeAttr(doc.trgLang)}">`,
    `  <file id="${escapeAttr(doc.fileId)}"${doc.original ? ` original="${escapeAttr(doc.original)}"` : ''}>`,
  ];
  for (const u of doc.units) {
    out.push(`    <unit id="${escapeAttr(u.id)}" xml:space="preserve">`);
    if (u.note) out.push(`      <notes><note category="location">${escapeText(u.note)}</note></notes>`);
    out.push(`      <segment state="${u.target === null ? 'initial' : 'translated'}">`);
    out.push(`        <source>${escapeText(u.source)}</source>`);
    if (u.target !== null) out.push(`        <target>${escapeText(u.target)}</target>`);
    out.push('      </segment>', '    </unit>');
  }
  out.push('  </file>', '</xliff>', '');
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Reading

export type XliffReadError =
  /** Not well-formed XML (line given). */
  | 'xml'
  /** Well-formed, but not an XLIFF document. */
  | 'notXliff'
  /** XLIFF 1.x: the translator's tool has to save it as 2.0. */
  | 'version1'
  /** A unit without an id, or a segment without a source. */
  | 'invalid';

export type XliffReadResult =
  | {
      ok: true;
      srcLang: string;
      trgLang: string | null;
      /** In document order; a unit id seen again (in another <file>) is kept once, the first. */
      units: XliffUnit[];
      /** Units whose texts held inline codes that were dropped. */
      inlineCodes: string[];
    }
  | { ok: false; reason: XliffReadError; line?: number };

interface Part {
  ignorable: boolean;
  source: string | null;
  target: string | null;
  /** The target's `order` (1-based place among the unit's parts), when given. */
  order: number | null;
}

class ReadError extends Error {
  constructor(
    readonly reason: XliffReadError,
    readonly line?: number,
  ) {
    super(reason);
  }
}

const attr = (tag: SaxesTagNS, local: string, uri = '') => {
  for (const a of Object.values(tag.attributes)) if (a.local === local && a.uri === uri) return a.value;
  return undefined;
};

const SPANNING = new Set(['pc', 'mrk']);

export function readXliff(text: string): XliffReadResult {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const units: XliffUnit[] = [];
  const seen = new Set<string>();
  const inlineCodes = new Set<string>();
  let srcLang = '';
  let trgLang: string | null = null;
  let depth = 0;
  let rootSeen = false;
  /** Depth of an element whose subtree is skipped (another namespace), or -1. */
  let skipFrom = -1;
  let unit: { id: string; parts: Part[] } | null = null;
  let part: Part | null = null;
  /** Collecting the text of a <source> or <target> of the current part. */
  let into: 'source' | 'target' | null = null;
  let buffer = '';

  parser.on('opentag', (tag) => {
    depth++;
    if (skipFrom >= 0) return;
    const local = tag.local;
    if (!rootSeen) {
      rootSeen = true;
      if (local !== 'xliff') throw new ReadError('notXliff');
      if (tag.uri !== XLIFF_NS) {
        const version = attr(tag, 'version') ?? '';
        throw new ReadError(
          version.startsWith('1.') || /document:1\./.test(tag.uri) ? 'version1' : 'notXliff',
        );
      }
      srcLang = attr(tag, 'srcLang') ?? '';
      trgLang = attr(tag, 'trgLang') ?? null;
      return;
    }
    if (tag.uri !== XLIFF_NS) {
      skipFrom = depth;
      return;
    }
    if (into) {
      if (local === 'cp') {
        const code = parseInt(attr(tag, 'hex') ?? '', 16);
        if (Number.isFinite(code) && code >= 0 && code <= 0x10ffff) buffer += String.fromCodePoint(code);
      } else {
        // <pc>/<mrk>: their text is kept, their markup is not; other codes carry no text of ours.
        if (unit) inlineCodes.add(unit.id);
        if (!SPANNING.has(local)) skipFrom = depth;
      }
      return;
    }
    switch (local) {
      case 'unit': {
        const id = attr(tag, 'id');
        if (!id) throw new ReadError('invalid', parser.line);
        unit = { id, parts: [] };
        break;
      }
      case 'segment':
      case 'ignorable':
        if (unit) part = { ignorable: local === 'ignorable', source: null, target: null, order: null };
        break;
      case 'source':
      case 'target':
        if (part) {
          into = local;
          buffer = '';
          const order = local === 'target' ? Number(attr(tag, 'order')) : NaN;
          if (Number.isInteger(order) && order > 0) part.order = order;
        }
        break;
      default:
        // <file>, <group>, <notes>, <note>, <originalData>, <skeleton>: nothing of a unit's texts.
        if (local === 'notes' || local === 'originalData' || local === 'skeleton') skipFrom = depth;
    }
  });

  parser.on('text', (t) => {
    if (into && skipFrom < 0) buffer += t;
  });
  parser.on('cdata', (t) => {
    if (into && skipFrom < 0) buffer += t;
  });

  parser.on('closetag', (tag) => {
    const at = depth--;
    if (skipFrom >= 0) {
      if (at === skipFrom) skipFrom = -1;
      return;
    }
    const local = tag.local;
    if (into && local === into) {
      part![into] = buffer;
      into = null;
      return;
    }
    if (into) return; // the end of a <pc> or <mrk>
    if ((local === 'segment' || local === 'ignorable') && part && unit) {
      if (part.source === null) throw new ReadError('invalid', parser.line);
      unit.parts.push(part);
      part = null;
    } else if (local === 'unit' && unit) {
      if (!seen.has(unit.id)) {
        seen.add(unit.id);
        units.push(joinUnit(unit.id, unit.parts));
      }
      unit = null;
    }
  });

  try {
    parser.write(text.replace(/^\uFEFF/, '')).close();
  } catch (err) {
    if (err instanceof ReadError) return { ok: false, reason: err.reason, line: err.line };
    return { ok: false, reason: 'xml', line: parser.line };
  }
  if (!rootSeen) return { ok: false, reason: 'notXliff' };
  return { ok: true, srcLang, trgLang, units, inlineCodes: [...inlineCodes] };
}

/**
 * A unit's text from its parts: the sources in order; the target from the parts' targets in their
 * `order`, an ignorable without a target giving its source (whitespace between segments). Any
 * segment without a target leaves the unit untranslated.
 */
function joinUnit(id: string, parts: Part[]): XliffUnit {
  const source = parts.map((p) => p.source ?? '').join('');
  if (parts.length === 0 || parts.some((p) => !p.ignorable && p.target === null))
    return { id, source, target: null };
  const placed = parts.map((p, i) => ({ at: p.order ?? i + 1, i, text: p.target ?? p.source ?? '' }));
  placed.sort((a, b) => a.at - b.at || a.i - b.i);
  return { id, source, target: placed.map((p) => p.text).join('') };
}

/** True when the id is a valid XLIFF id (NMTOKEN, within the characters our ids use). */
export const isUnitId = (id: string) => /^[A-Za-z0-9._:-]+$/.test(id);
