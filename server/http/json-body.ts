import type { FastifyInstance } from 'fastify';
import { MAX_JSON_DEPTH } from '../../src/domain/validation';
import { badRequest } from './errors';
import { valueProblem } from './input-guard';
import { fieldError } from './validate';

// JSON bodies are parsed by Fastify's own parser, after one look at the text: a body that nests
// objects and arrays deeper than MAX_JSON_DEPTH is refused before anything is built from it
// (issue 26). JSON.parse itself copes with any depth, but every walk over the value afterwards (the
// input guard, valibot, JSON.stringify) would need a stack as deep as the body; refusing here keeps
// all of them bounded, on every route, including routes added later.

const OPEN_BRACKET = 0x5b; // [
const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACKET = 0x5d; // ]
const CLOSE_BRACE = 0x7d; // }
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Whether JSON text nests deeper than `max` (the outermost object or array is level 1). Brackets
 * inside strings do not count: a string is skipped in one jump to its closing quote (indexOf, so a
 * questionnaire of mostly text costs about a tenth of its JSON.parse). No stack; malformed text is
 * left for the parser to refuse.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // The next quote that is not escaped (preceded by an even number of backslashes) ends it.
      let end = text.indexOf('"', i + 1);
      for (;;) {
        if (end === -1) return false;
        let k = end - 1;
        while (text.charCodeAt(k) === BACKSLASH) k--;
        if ((end - 1 - k) % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      i = end;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth--;
  }
  return false;
}

export const tooDeep = () =>
  badRequest((t) => t.errors.tooDeep({ max: MAX_JSON_DEPTH }), { code: 'too-deep' });

/**
 * A \uD800–\uDFFF escape in JSON text. Only an escape can bring half of a surrogate pair into a
 * body (UTF-8 cannot encode one, and JSON.stringify writes real pairs as they are), so a body
 * without one is not walked for them.
 */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * Replaces the JSON parser with one that checks the depth first and refuses half a surrogate pair
 * on every route, including those that read their body without parse(); everything else is
 * Fastify's. Bodies are JSON: Fastify's own text/plain parser is removed, so such a body is 415.
 */
export function registerJsonBody(app: FastifyInstance) {
  // Fastify's defaults: a body with __proto__ or constructor.prototype is refused.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    // An empty body says nothing: it is read as no body (a DELETE sent by a client that always
    // names JSON), as it is without the header; a route that needs one says what is missing.
    if (text === '') return done(null, undefined);
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) return done(tooDeep(), undefined);
    if (!SURROGATE_ESCAPE.test(text)) return parseJson(req, text, done);
    parseJson(req, text, (err, value) => {
      const problem = err ? null : valueProblem(value);
      if (problem?.key === 'brokenText') return done(fieldError([{ ...problem, params: {} }]), undefined);
      return done(err, value);
    });
  });
}
