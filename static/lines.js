// A structure's lines as the engine wrote them. The API sends each distinct line once, as a
// template in `structure.templates`, and each line as [template, ...arguments] (docs/api.md,
// "Templates"; engine/trace/packed.py): this fills the templates back in, character for
// character. A template's string is text, its integer k the line's argument k, a relation's
// `of` and `to` argument indices; an argument a >= 0 is a slot, a < 0 a node's name (-1 - 2·id)
// or its grad's name (-2 - 2·id). No words here: every word is the engine's.

const filled = new WeakMap(); // a packed structure → its lines filled in (one per answer held)

/** The structure with every line written out (a structure without templates, as it is). */
export function unpacked(structure) {
  if (!structure.templates?.length) return structure;
  let out = filled.get(structure);
  if (out) return out;
  const byId = [];
  for (const node of structure.nodes) byId[node.id] = node;
  const argument = (a) => (a >= 0 ? a : a % 2 ? byId[(-1 - a) / 2].name : byId[(-2 - a) / 2].grad_name);
  const line = ([t, ...args]) => fill(structure.templates[t], args.map(argument));
  out = {
    ...structure,
    templates: [],
    nodes: structure.nodes.map((n) => ({ ...n, sum: line(n.sum) })),
    steps: structure.steps.map((s) => ({ ...s, rows: s.rows.map((row) => row.map((c) => ({ role: c.role, parts: line(c.parts) }))) })),
    calls: structure.calls.map((c) => ({ ...c, forward: c.forward.map(line), backward: c.backward.map(line) })),
  };
  filled.set(structure, out);
  return out;
}

/** A template's parts with its holes filled: a name joins the text around it, as written. */
function fill(template, args) {
  const parts = [];
  const text = (s) => (typeof parts.at(-1) === "string" ? (parts[parts.length - 1] += s) : parts.push(s));
  for (const p of template) {
    if (typeof p === "string") text(p);
    else if (typeof p === "object") parts.push({ ...p, of: p.of.map((k) => args[k]), to: args[p.to] });
    else if (typeof args[p] === "string") text(args[p]);
    else parts.push(args[p]);
  }
  return parts;
}
