// The page's elements by id, and the small elements the detail panel is built of.

export const $ = (id) => document.getElementById(id);

/** A value as indented JSON. */
export function pre(value) {
  const p = document.createElement("pre");
  p.textContent = JSON.stringify(value, null, 2);
  return p;
}

/** A paragraph of text, with a class when given. */
export function para(text, cls) {
  const p = document.createElement("p");
  p.textContent = text;
  if (cls) p.className = cls;
  return p;
}

/** A table of `rows` under `headers`; a cell is text or an element. */
export function table(headers, rows) {
  const t = document.createElement("table");
  const head = t.createTHead().insertRow();
  for (const h of headers) { const th = document.createElement("th"); th.textContent = h; head.append(th); }
  const body = t.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const cell of row) {
      const td = tr.insertCell();
      if (cell instanceof Node) td.append(cell); else td.textContent = cell ?? "";
    }
  }
  return t;
}
