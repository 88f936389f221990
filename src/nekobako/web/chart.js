// A rating history as a small inline SVG line chart: no library, no script inside the picture.
// The picture has a text alternative (role="img" + aria-label) and each point a <title>.
import { labelled } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 480;
const HEIGHT = 160;
const PAD = { left: 44, right: 12, top: 12, bottom: 24 };

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const child of children) el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return el;
}

// points: [{rating, label}] oldest first, `start` the rating before the first game.
// `describe` is the chart's text alternative.
export function ratingChart(points, start, describe) {
  const values = [start, ...points.map((p) => p.rating)];
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < 20) {
    const mid = (high + low) / 2;
    low = mid - 10;
    high = mid + 10;
  }
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (values.length === 1 ? innerW / 2 : (i * innerW) / (values.length - 1));
  const y = (v) => PAD.top + ((high - v) * innerH) / (high - low);
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const grid = [high, (high + low) / 2, low].map((v) =>
    svg(
      "g",
      { class: "chart-grid" },
      svg("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(v), y2: y(v) }),
      svg("text", { x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end" }, Math.round(v)),
    ),
  );
  const dots = values.map((v, i) =>
    svg(
      "circle",
      { cx: x(i), cy: y(v), r: 3.5, class: i === 0 ? "chart-start" : "chart-point" },
      svg("title", {}, i === 0 ? String(Math.round(v)) : labelled(points[i - 1].label, Math.round(v))),
    ),
  );
  return svg(
    "svg",
    {
      class: "rating-chart",
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      role: "img",
      "aria-label": describe,
      "data-testid": "rating-chart",
      "data-points": values.length,
    },
    ...grid,
    svg("polyline", { points: line, class: "chart-line", fill: "none" }),
    ...dots,
  );
}
