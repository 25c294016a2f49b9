// The training lab's two canvases: the decision boundary under the data points, and the loss
// and accuracy curves. Colours come from CSS variables, so light and dark follow the theme.

/** A canvas sized to its box at the screen's pixel density; returns its context and CSS size. */
export function fitCanvas(canvas) {
  const ratio = window.devicePixelRatio || 1;
  const width = Math.max(1, canvas.clientWidth);
  const height = Math.max(1, canvas.clientHeight);
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  const ctx = canvas.getContext("2d");
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return { ctx, width, height };
}

/** The theme's colours as a canvas takes them: each variable resolved by the browser (a
 * variable's own text may be light-dark(...), which a canvas cannot read). */
export function palette(element) {
  const probe = document.createElement("span");
  element.append(probe);
  const get = (name) => {
    probe.style.color = `var(${name})`;
    return getComputedStyle(probe).color;
  };
  const colours = {
    classes: [get("--class-0"), get("--class-1"), get("--class-2")],
    ink: get("--ink"),
    muted: get("--muted"),
    line: get("--line"),
    panel: get("--panel"),
    loss: get("--curve-loss"),
    accuracy: get("--curve-accuracy"),
    selected: get("--current"),
  };
  probe.remove();
  return colours;
}

/** Where a data point lands on the canvas: x right, y up, the bounds filling the square. */
export function toCanvas(bounds, size, [x, y]) {
  return [
    ((x - bounds.x_min) / (bounds.x_max - bounds.x_min)) * size.width,
    ((bounds.y_max - y) / (bounds.y_max - bounds.y_min)) * size.height,
  ];
}

/** The index of the point nearest (px, py) on the canvas, if one is within `reach` pixels. */
export function nearestPoint(points, bounds, size, px, py, reach = 12) {
  let best = null;
  let bestDistance = reach * reach;
  points.forEach((point, i) => {
    const [cx, cy] = toCanvas(bounds, size, point);
    const d = (cx - px) ** 2 + (cy - py) ** 2;
    if (d <= bestDistance) {
      best = i;
      bestDistance = d;
    }
  });
  return best;
}

export function drawBoundary(canvas, { points, labels, bounds, grid, selected }) {
  const { ctx, width, height } = fitCanvas(canvas);
  const colours = palette(canvas);
  ctx.fillStyle = colours.panel;
  ctx.fillRect(0, 0, width, height);
  if (!bounds) {
    ctx.fillStyle = colours.muted;
    ctx.font = "14px system-ui, sans-serif";
    ctx.textAlign = "center";
    ctx.fillText("The data and the model's regions appear when training starts.", width / 2, height / 2);
    return;
  }
  if (grid) {
    // one pixel per cell, scaled up with smoothing: soft regions, no seams between cells
    const cells = document.createElement("canvas");
    cells.width = cells.height = grid.n;
    const cellCtx = cells.getContext("2d");
    cellCtx.fillStyle = colours.panel;
    cellCtx.fillRect(0, 0, grid.n, grid.n);
    for (let i = 0; i < grid.n * grid.n; i++) {
      cellCtx.globalAlpha = 0.12 + 0.45 * grid.confidence[i];
      cellCtx.fillStyle = colours.classes[grid.classes[i]];
      cellCtx.fillRect(i % grid.n, Math.floor(i / grid.n), 1, 1);
    }
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = "high";
    ctx.drawImage(cells, 0, 0, width, height);
  }
  drawAxes(ctx, bounds, { width, height }, colours);
  const radius = points.length > 300 ? 3.5 : 5;
  points.forEach((point, i) => {
    const [x, y] = toCanvas(bounds, { width, height }, point);
    ctx.beginPath();
    ctx.arc(x, y, radius, 0, 2 * Math.PI);
    ctx.fillStyle = colours.classes[labels[i]];
    ctx.fill();
    ctx.lineWidth = 1.2;
    ctx.strokeStyle = colours.ink;
    ctx.stroke();
  });
  if (selected !== null && selected !== undefined && points[selected]) {
    const [x, y] = toCanvas(bounds, { width, height }, points[selected]);
    ctx.beginPath();
    ctx.arc(x, y, radius + 5, 0, 2 * Math.PI);
    ctx.lineWidth = 3;
    ctx.strokeStyle = colours.selected;
    ctx.stroke();
  }
}

function drawAxes(ctx, bounds, size, colours) {
  ctx.strokeStyle = colours.line;
  ctx.lineWidth = 1;
  ctx.setLineDash([4, 4]);
  if (bounds.x_min < 0 && bounds.x_max > 0) {
    const [x] = toCanvas(bounds, size, [0, 0]);
    line(ctx, x, 0, x, size.height);
  }
  if (bounds.y_min < 0 && bounds.y_max > 0) {
    const [, y] = toCanvas(bounds, size, [0, 0]);
    line(ctx, 0, y, size.width, y);
  }
  ctx.setLineDash([]);
}

function line(ctx, x0, y0, x1, y1) {
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.stroke();
}

const PAD = { left: 52, right: 46, top: 12, bottom: 30 };

/** Loss (left axis, from 0) and accuracy (right axis, 0 to 100%) against the epoch. */
export function drawCurves(canvas, { history, epochs }) {
  const { ctx, width, height } = fitCanvas(canvas);
  const colours = palette(canvas);
  const plotW = width - PAD.left - PAD.right;
  const plotH = height - PAD.top - PAD.bottom;
  const lastEpoch = Math.max(epochs || 1, 1);
  const maxLoss = history.length ? niceCeiling(Math.max(1e-9, ...history.map((h) => h.loss))) : 1;
  const x = (epoch) => PAD.left + (epoch / lastEpoch) * plotW;
  const yLoss = (v) => PAD.top + plotH - (v / maxLoss) * plotH;
  const yAcc = (v) => PAD.top + plotH - v * plotH;

  ctx.font = "12px system-ui, sans-serif";
  ctx.lineWidth = 1;
  ctx.strokeStyle = colours.line;
  ctx.fillStyle = colours.muted;
  for (let k = 0; k <= 4; k++) {
    const y = PAD.top + (plotH * k) / 4;
    line(ctx, PAD.left, y, PAD.left + plotW, y);
    ctx.textAlign = "right";
    ctx.fillText(formatTick(maxLoss * (1 - k / 4)), PAD.left - 6, y + 4);
    ctx.textAlign = "left";
    ctx.fillText(`${100 - 25 * k}%`, PAD.left + plotW + 6, y + 4);
  }
  ctx.textAlign = "center";
  ctx.fillText("0", x(0), height - 10);
  ctx.fillText(`epoch ${lastEpoch}`, x(lastEpoch) - 20, height - 10);
  if (!history.length) return;
  plot(ctx, history, (h) => x(h.epoch), (h) => yAcc(h.accuracy), colours.accuracy, [6, 3]);
  plot(ctx, history, (h) => x(h.epoch), (h) => yLoss(h.loss), colours.loss, []);
}

function plot(ctx, history, fx, fy, colour, dash) {
  ctx.beginPath();
  ctx.setLineDash(dash);
  ctx.strokeStyle = colour;
  ctx.lineWidth = 2;
  history.forEach((h, i) => (i ? ctx.lineTo(fx(h), fy(h)) : ctx.moveTo(fx(h), fy(h))));
  ctx.stroke();
  ctx.setLineDash([]);
}

/** 1, 2 or 5 times a power of ten, at least v: axis labels people can read. */
export function niceCeiling(v) {
  const power = 10 ** Math.floor(Math.log10(v));
  for (const step of [1, 2, 5, 10]) if (step * power >= v) return step * power;
  return 10 * power;
}

function formatTick(v) {
  if (v === 0) return "0";
  return Math.abs(v) >= 0.01 ? String(Number(v.toPrecision(3))) : v.toExponential(0);
}
