// An editable table of rows, each an object of the request (a usage pattern, a charging habit, a push schedule, a
// launch submission, a run behaviour): one input per column, a button to remove a row and one to add one.
//
// A column is `{key, label, type, options, numeric, numberOrWord, optional, placeholder, width}`; `type` is `text`,
// `number`, `list` (numbers or words separated by commas), `check` or `select` (`numeric` when its options are
// numbers); `numberOrWord`: a text that is a number is sent as one (`5`, `"never"`); an `optional` column left empty
// is left out of its row's object.

let tableCount = 0;

export class RowTable {
  /** A table in `container` named `label` (its accessible name), with `columns` and a new row's `blank` values. */
  constructor(container, { label, columns, blank, path }) {
    this.columns = columns;
    this.blank = blank;
    this.label = label;
    this.id = `rows-${++tableCount}`;
    container.classList.add("row-table");
    container.dataset.rows = path;
    this.table = document.createElement("table");
    this.table.setAttribute("aria-label", label);
    const head = this.table.createTHead().insertRow();
    for (const c of columns) {
      const th = document.createElement("th");
      th.textContent = c.label;
      th.scope = "col";
      if (c.title) th.title = c.title;
      head.append(th);
    }
    head.append(document.createElement("th"));
    this.body = this.table.createTBody();
    const add = document.createElement("button");
    add.type = "button";
    add.className = "add-row";
    add.textContent = `Add ${label.replace(/s$/, "").toLowerCase()}`;
    add.addEventListener("click", () => { this.addRow(this.blank()); this.body.lastElementChild?.querySelector("input,select")?.focus(); });
    container.replaceChildren(this.table, add);
  }

  /** The rows as objects. */
  read() {
    return [...this.body.rows].map((tr) => {
      const row = {};
      this.columns.forEach((c, i) => {
        const input = tr.cells[i].firstElementChild;
        const value = readInput(c, input);
        if (value !== undefined) row[c.key] = value;
      });
      return row;
    });
  }

  /** Replaces the rows with `rows` (objects). */
  fill(rows) {
    this.body.replaceChildren();
    for (const row of rows || []) this.addRow(row);
  }

  addRow(values) {
    const tr = this.body.insertRow();
    const n = this.body.rows.length;
    for (const c of this.columns) {
      const input = makeInput(c);
      input.setAttribute("aria-label", `${this.label} ${n}: ${c.label}`);
      writeInput(c, input, values[c.key]);
      tr.insertCell().append(input);
    }
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "remove-row";
    remove.textContent = "×";
    remove.setAttribute("aria-label", `Remove ${this.label.replace(/s$/, "").toLowerCase()} ${n}`);
    remove.addEventListener("click", () => tr.remove());
    tr.insertCell().append(remove);
  }
}

function makeInput(column) {
  if (column.type === "select") {
    const select = document.createElement("select");
    for (const option of column.options) select.append(new Option(option, option));
    return select;
  }
  const input = document.createElement("input");
  input.type = column.type === "check" ? "checkbox" : column.type === "number" ? "number" : "text";
  if (column.type === "number") input.step = "any";
  if (column.placeholder) input.placeholder = column.placeholder;
  if (column.width) input.style.width = column.width;
  return input;
}

function writeInput(column, input, value) {
  if (column.type === "check") input.checked = Boolean(value);
  else if (column.type === "list") input.value = Array.isArray(value) ? value.join(", ") : "";
  else input.value = value === undefined || value === null ? "" : String(value);
}

/** The value of a cell: a number typed as text that is not one is sent as the text, for the service to refuse. */
function readInput(column, input) {
  if (column.type === "check") return input.checked;
  const raw = input.value.trim();
  if (raw === "") return column.optional ? undefined : column.type === "list" ? [] : column.type === "text" ? "" : undefined;
  if (column.type === "number" || column.numeric) return Number(raw);
  if (column.type === "list") return raw.split(/[\s,]+/).filter(Boolean).map((v) => (Number.isFinite(Number(v)) ? Number(v) : v));
  if (column.numberOrWord) return Number.isFinite(Number(raw)) ? Number(raw) : raw;
  return raw;
}
