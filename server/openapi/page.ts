import type { OpenApiDocument } from './document';

// A readable page of the OpenAPI document, rendered on the server: no script (the CSP allows none
// inline) and nothing from a CDN (the product runs without internet).

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function schemaText(schema: unknown): string {
  return esc(JSON.stringify(schema, null, 2));
}

export function renderDocsPage(doc: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const id = esc(op.operationId);
      const params = (op.parameters ?? [])
        .map(
          (p) =>
            `<tr><td><code>${esc(p.name)}</code></td><td>${p.in}</td><td>${p.required ? 'yes' : 'no'}</td><td><code>${esc(
              JSON.stringify(p.schema),
            )}</code></td></tr>`,
        )
        .join('');
      const body = op.requestBody
        ? Object.entries(op.requestBody.content)
            .map(([type, c]) => `<p>Body (<code>${esc(type)}</code>):</p><pre>${schemaText(c.schema)}</pre>`)
            .join('')
        : '';
      const html = `<section id="${id}" class="op">
<h3><span class="m m-${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code></h3>
<p>${esc(op.summary)}</p>
${params ? `<table><thead><tr><th>Parameter</th><th>In</th><th>Required</th><th>Schema</th></tr></thead><tbody>${params}</tbody></table>` : ''}
${body}
</section>`;
      const tag = op.tags[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const tags = [...byTag.keys()].sort();
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info.title)} ${esc(doc.info.version)}</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; color: #1f2937; background: #fff; margin: 0; }
  header, main { max-width: 960px; margin: 0 auto; padding: 16px; }
  h1 { font-size: 24px; margin: 8px 0; } h2 { font-size: 20px; border-bottom: 1px solid #e5e7eb; padding-top: 16px; }
  h3 { font-size: 16px; margin: 0 0 4px; overflow-wrap: anywhere; }
  nav { display: flex; flex-wrap: wrap; gap: 4px 12px; } nav a { color: #1d4ed8; }
  .op { border: 1px solid #e5e7eb; border-radius: 8px; padding: 12px; margin: 12px 0; }
  .m { display: inline-block; min-width: 56px; text-align: center; border-radius: 4px; color: #fff; font-size: 13px; padding: 1px 6px; }
  .m-get { background: #1d4ed8; } .m-post { background: #047857; } .m-put { background: #b45309; } .m-delete { background: #b91c1c; } .m-patch { background: #6d28d9; }
  pre { max-width: 100%; box-sizing: border-box; background: #f3f4f6; padding: 8px; overflow: auto; max-height: 320px; font-size: 13px; }
  table { border-collapse: collapse; width: 100%; font-size: 14px; display: block; overflow-x: auto; } td, th { border: 1px solid #e5e7eb; padding: 4px 6px; text-align: left; vertical-align: top; }
  td code { overflow-wrap: anywhere; } td:last-child { min-width: 16em; }
</style>
</head>
<body>
<header>
<h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1>
<p>${esc(doc.info.description)}</p>
<p>Base path <code>${esc(doc.servers[0]?.url ?? '')}</code>. Machine-readable: <a href="openapi.json">openapi.json</a> (OpenAPI ${doc.openapi}).</p>
<nav aria-label="Groups">${tags.map((t) => `<a href="#tag-${esc(t)}">${esc(t)}</a>`).join('')}</nav>
</header>
<main>
${tags.map((t) => `<h2 id="tag-${esc(t)}">${esc(t)}</h2>\n${byTag.get(t)!.join('\n')}`).join('\n')}
</main>
</body>
</html>`;
}
