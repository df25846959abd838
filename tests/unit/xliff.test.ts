import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readXliff, writeXliff, XLIFF_NS } from '../../src/domain/translations/xliff';

// The XLIFF 2.0 reader and writer (docs/decisions/translations.md): what a CAT tool sends back must be
// read as the translator meant it, spaces and line breaks included, and nothing we write may be
// misread by a strict XML parser.

const doc = (units: string, attrs = 'srcLang="ru" trgLang="en"') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<xliff xmlns="${XLIFF_NS}" version="2.0" ${attrs}><file id="f">${units}</file></xliff>`;

/** Text a questionnaire may hold: what the content's schema lets through (no control characters but tab, LF, CR). */
const tricky = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    'Сколько часов в день вы играете?',
    '"quoted" & \'single\' <b>not a tag</b> ]]> &amp;',
    '😀 👨‍👩‍👧 emoji',
    '  leading and trailing  ',
    'line one\nline two\r\nline three\r',
    'tab\there',
  ),
);

describe('XLIFF 2.0 writer and reader', () => {
  it('reads back every unit it wrote: ids, sources and targets exactly, untranslated ones as null', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ source: tricky, target: fc.option(tricky, { nil: null }), note: tricky }), {
          maxLength: 20,
        }),
        (items) => {
          const units = items.map((u, i) => ({ id: `q.id${i}.text`, ...u }));
          const read = readXliff(writeXliff({ srcLang: 'ru', trgLang: 'en', fileId: 'p1', units }));
          expect(read).toEqual({
            ok: true,
            srcLang: 'ru',
            trgLang: 'en',
            units: units.map(({ id, source, target }) => ({ id, source, target })),
            inlineCodes: [],
          });
        },
      ),
    );
  });

  it('writes the documented shape: namespace, version, languages, preserved spaces, state, escaped text', () => {
    const xml = writeXliff({
      srcLang: 'ru',
      trgLang: 'en',
      fileId: 'p7',
      original: 'Игры & "жанры"',
      units: [
        { id: 'q.a.text', source: 'A & B <c>', target: null, note: 'Block 1 › Question 1' },
        { id: 'q.b.text', source: 'x', target: 'y' },
      ],
    });
    expect(xml).toContain(`<xliff xmlns="${XLIFF_NS}" version="2.0" srcLang="ru" trgLang="en">`);
    expect(xml).toContain('<file id="p7" original="Игры &amp; &quot;жанры&quot;">');
    expect(xml).toContain('<unit id="q.a.text" xml:space="preserve">');
    expect(xml).toContain('<note category="location">Block 1 › Question 1</note>');
    expect(xml).toContain(
      '<segment state="initial">\n        <source>A &amp; B &lt;c&gt;</source>\n      </segment>',
    );
    expect(xml).toContain('<segment state="translated">');
    expect(xml).toContain('<target>y</target>');
  });

  it('joins a unit that a CAT tool split into segments, keeping the ignorable whitespace between them', () => {
    const read = readXliff(
      doc(`<unit id="u1">
        <segment id="s1"><source>Первое.</source><target>First.</target></segment>
        <ignorable><source> </source></ignorable>
        <segment id="s2"><source>Второе.</source><target>Second.</target></segment>
      </unit>`),
    );
    expect(read).toMatchObject({
      ok: true,
      units: [{ id: 'u1', source: 'Первое. Второе.', target: 'First. Second.' }],
    });
  });

  it('puts reordered segments in their target order', () => {
    const read = readXliff(
      doc(`<unit id="u1">
        <segment><source>A.</source><target order="2">a.</target></segment>
        <segment><source>B.</source><target order="1">b.</target></segment>
      </unit>`),
    );
    expect(read).toMatchObject({ ok: true, units: [{ source: 'A.B.', target: 'b.a.' }] });
  });

  it('leaves a unit untranslated while any of its segments has no target', () => {
    const read = readXliff(
      doc(
        `<unit id="u1"><segment><source>A.</source><target>a.</target></segment><segment><source>B.</source></segment></unit>`,
      ),
    );
    expect(read).toMatchObject({ ok: true, units: [{ id: 'u1', target: null }] });
  });

  it('keeps the text of inline markup, drops standalone codes, and names the units that had them', () => {
    const read = readXliff(
      doc(`<unit id="u1"><segment><source>x</source><target>Very <pc id="1">important</pc><ph id="2"/> <mrk id="m" translate="no">VK</mrk> <cp hex="1F600"/></target></segment></unit>
           <unit id="u2"><segment><source>y</source><target>plain</target></segment></unit>`),
    );
    expect(read).toEqual({
      ok: true,
      srcLang: 'ru',
      trgLang: 'en',
      units: [
        { id: 'u1', source: 'x', target: 'Very important VK 😀' },
        { id: 'u2', source: 'y', target: 'plain' },
      ],
      inlineCodes: ['u1'],
    });
  });

  it('skips notes, other namespaces (tool extensions, modules) and CDATA is text', () => {
    const read = readXliff(
      doc(`<unit id="u1" xmlns:mtc="urn:oasis:names:tc:xliff:matches:2.0">
        <notes><note>not a text</note></notes>
        <mtc:matches><mtc:match ref="#s1"><source>old</source><target>stale</target></mtc:match></mtc:matches>
        <segment><source>s</source><target><![CDATA[<b> & ]]></target></segment>
      </unit>`),
    );
    expect(read).toMatchObject({ ok: true, units: [{ id: 'u1', source: 's', target: '<b> & ' }] });
  });

  it('reads units inside groups and keeps the first of a repeated id', () => {
    const read = readXliff(
      doc(`<group id="g"><unit id="u1"><segment><source>a</source><target>1</target></segment></unit></group>
           <unit id="u1"><segment><source>a</source><target>2</target></segment></unit>`),
    );
    expect(read).toMatchObject({ ok: true, units: [{ id: 'u1', target: '1' }] });
  });

  it('refuses what is not XLIFF 2: broken XML with its line, XLIFF 1.2, another root, an entity it does not know', () => {
    expect(readXliff(`<xliff xmlns="${XLIFF_NS}">\n<file id="f">\n<unit id="u">`)).toMatchObject({
      ok: false,
      reason: 'xml',
    });
    expect(
      readXliff('<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file/></xliff>'),
    ).toEqual({ ok: false, reason: 'version1' });
    expect(readXliff('<html><body/></html>')).toEqual({ ok: false, reason: 'notXliff' });
    expect(readXliff('')).toMatchObject({ ok: false });
    // No DTD is read: an entity declared in the document is not expanded (no billion laughs).
    expect(
      readXliff(
        `<!DOCTYPE x [<!ENTITY a "aaaa">]><xliff xmlns="${XLIFF_NS}"><file id="f"><unit id="u"><segment><source>&a;</source></segment></unit></file></xliff>`,
      ),
    ).toMatchObject({ ok: false, reason: 'xml' });
    expect(readXliff(doc('<unit><segment><source>a</source></segment></unit>'))).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
  });

  it('reads a file that starts with a byte order mark', () => {
    const xml =
      '\uFEFF' +
      writeXliff({
        srcLang: 'ru',
        trgLang: 'en',
        fileId: 'f',
        units: [{ id: 'u', source: 'a', target: 'b' }],
      });
    expect(readXliff(xml)).toMatchObject({ ok: true, units: [{ id: 'u', target: 'b' }] });
  });
});
