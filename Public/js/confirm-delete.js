// The inline "Delete? Delete / Keep" question a list shows under an item before deleting it.

/**
 * A confirmation group: `text`, a danger button that calls `onDelete`, and one named `keepLabel` that calls
 * `onKeep`. `label` names the group for assistive technology.
 */
export function confirmDelete({ label, text, keepLabel, onDelete, onKeep }) {
  const box = document.createElement("div");
  box.className = "confirm-delete";
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", label);
  const question = document.createElement("span");
  question.textContent = text;
  const yes = document.createElement("button");
  yes.type = "button";
  yes.className = "confirm-yes danger";
  yes.textContent = "Delete";
  yes.addEventListener("click", onDelete);
  const no = document.createElement("button");
  no.type = "button";
  no.className = "confirm-no";
  no.textContent = keepLabel;
  no.addEventListener("click", onKeep);
  box.append(question, yes, no);
  return box;
}
