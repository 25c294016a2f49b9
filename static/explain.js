// The words and arithmetic of each step, the inspector's sum and node names. Pure: no DOM.

import { formatNumber, formatOperand } from "./format.js";

const SNIPPET_MAX = 18;
const BINARY = new Set(["+", "−", "-", "*", "/", "**"]);

/** The text of a source span (1-based line and columns, end exclusive), or "". */
export function spanText(source, span) {
  if (!span || !source) return "";
  const line = source.split("\n")[span.line - 1] ?? "";
  return line.slice(span.column - 1, span.end_column - 1);
}

/** How a node is named in formulas: its label; a constant's number; else its expression in
 * its operands' names when short (`(b + a)`), else `#id`. Not the source text: after `c += …`
 * the source says `c` where the graph has `c₁`. */
export function nodeName(model, id, decimals = 4) {
  model.names ??= new Map();
  const cached = model.names.get(id);
  if (cached !== undefined) return cached;
  const node = model.byId[id];
  let name;
  if (node.label) name = node.label;
  else if (node.kind === "constant") name = shortNumber(node.data);
  else {
    const expr = expressionOf(model, id, decimals);
    name = expr && expr.length <= SNIPPET_MAX ? expr : `#${id}`;
  }
  model.names.set(id, name);
  return name;
}

function shortNumber(x) {
  return String(Number(x.toPrecision(6))).replace("-", "−");
}

function expressionOf(model, id, decimals) {
  const node = model.byId[id];
  const names = model.operandEdges[id].map((e) => nodeName(model, e.source, decimals));
  const sym = node.symbol ?? node.op ?? "?";
  if (names.length === 2 && BINARY.has(sym)) return `(${names[0]} ${sym} ${names[1]})`;
  if (names.length === 1 && (sym === "−" || sym === "-")) return `(−${names[0]})`;
  if (names.length >= 1) return `${node.op ?? sym}(${names.join(", ")})`;
  return "";
}

function outputName(model) {
  const out = model.byId[model.trace.output];
  return out.label ?? "L";
}

/** "∂g/∂a": the output with respect to a node. */
export function partial(model, id, decimals) {
  return `∂${outputName(model)}/∂${nodeName(model, id, decimals)}`;
}

/** Forward step i: `c = a + b = (−4.0000) + 2.0000 = −2.0000`. */
export function forwardText(model, i, decimals) {
  const step = model.trace.forward[i];
  if (!step) return "";
  const node = model.byId[step.node];
  const names = model.operandEdges[step.node].map((e) => nodeName(model, e.source, decimals));
  const nums = step.operands.map((x) => formatOperand(x, decimals));
  const sym = node.symbol ?? node.op ?? "?";
  let expr;
  let arith;
  if (names.length === 2 && BINARY.has(sym)) {
    expr = `${names[0]} ${sym} ${names[1]}`;
    arith = `${nums[0]} ${sym} ${nums[1]}`;
  } else if (names.length === 1 && (sym === "−" || sym === "-")) {
    expr = `−${names[0]}`;
    arith = `−${nums[0]}`;
  } else {
    const fn = node.op ?? sym;
    expr = `${fn}(${names.join(", ")})`;
    arith = `${fn}(${nums.join(", ")})`;
  }
  const result = formatNumber(step.result, decimals, { unicodeMinus: true });
  return `${nodeName(model, step.node, decimals)} = ${expr} = ${arith} = ${result}`;
}

/**
 * Backward step j as lines of {formula, change}: the chain rule with real numbers, then how the
 * operand's grad moves (saying so when it accumulates onto an earlier contribution).
 */
export function backwardLines(model, j, decimals) {
  const step = model.trace.backward[j];
  if (!step) return [];
  const fmt = (x) => formatNumber(x, decimals, { unicodeMinus: true });
  const out = nodeName(model, step.node, decimals);
  if (step.seed) {
    return [
      {
        formula: `${partial(model, step.node, decimals)} = 1 (the seed: the output with respect to itself)`,
        change: `${out}.grad: 0 → 1`,
        accumulates: false,
      },
    ];
  }
  const lines = [];
  for (const c of step.contributions) {
    if (model.byId[c.operand].kind === "constant") continue;
    const operand = nodeName(model, c.operand, decimals);
    const upstream = partial(model, step.node, decimals);
    const local = `∂${out}/∂${operand}`;
    const formula =
      `${partial(model, c.operand, decimals)} += ${local} · ${upstream}` +
      ` = ${c.local_expr} · ${upstream}` +
      ` = ${formatOperand(c.local, decimals)} · ${formatOperand(c.upstream, decimals)}` +
      ` = ${fmt(c.contribution)}`;
    const accumulates = model.users[c.operand][0]?.contribution !== c;
    const change =
      `${operand}.grad: ${fmt(c.grad_before)} → ${fmt(c.grad_after)}` +
      (accumulates ? ` (accumulates: ${operand} is used more than once)` : "");
    lines.push({ formula, change, accumulates, rule: c.rule });
  }
  return lines;
}

/**
 * The inspector's sum: ∂L/∂b = ∂L/∂d·∂d/∂b + ∂L/∂e·∂e/∂b = (u·l) + … = total, one term per use.
 */
export function gradientSum(model, id, decimals) {
  const node = model.byId[id];
  const fmt = (x) => formatNumber(x, decimals, { unicodeMinus: true });
  if (node.kind === "constant") return `${nodeName(model, id, decimals)} is a constant: it takes no gradient.`;
  if (id === model.trace.output) return `${partial(model, id, decimals)} = 1 (the output)`;
  const uses = model.users[id];
  if (uses.length === 0) return `${partial(model, id, decimals)} = 0 (the output does not depend on it)`;
  const name = nodeName(model, id, decimals);
  const symbolic = uses
    .map((u) => `${partial(model, u.from, decimals)}·∂${nodeName(model, u.from, decimals)}/∂${name}`)
    .join(" + ");
  const numeric = uses
    .map((u) => `${formatOperand(u.contribution.upstream, decimals)}·${formatOperand(u.contribution.local, decimals)}`)
    .join(" + ");
  return `${partial(model, id, decimals)} = ${symbolic} = ${numeric} = ${fmt(node.grad)}`;
}
