// A board drawn from its JSON (app/web/snapshot.py's board_view): its holes, areas,
// pieces and lights, as an SVG. Loaded by the board's own page (app.js) and by the
// club's page (club.js, served by a board and by tabletop watch), so a board looks the
// same in both; it runs nothing by itself.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const HOLE = "#28201a";
const WOOD = "#6b4b2e";
// Kulami's loose panels in four woods far enough apart to tell neighbours at a glance.
const PANEL_TONES = ["#b07a40", "#4e301a", "#d8b27a", "#84603a"];

// --- drawing a board ------------------------------------------------------------------
function el(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function hull(points) {
  // The convex hull of points (Andrew's monotone chain), for an area's outline.
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (sorted.length < 3) return sorted;
  const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list) => {
    const out = [];
    for (const p of list) {
      while (out.length >= 2 && cross(out[out.length - 2], out[out.length - 1], p) <= 0) out.pop();
      out.push(p);
    }
    out.pop();
    return out;
  };
  return half(sorted).concat(half(sorted.reverse()));
}

function dark(colour) {
  // Whether a "#rrggbb" colour is dark (its luma under a third).
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b < 85;
}

// A move a player made away from the table (from a page, or a board far away), lit for
// a person at the table to place: drawn in that player's colour and named as theirs in
// the legend (the legend row carries the player), where the LEDs show every move to
// place alike.
function ownMoves(state) {
  const theirs = new Set(state.legend.filter((row) => row.player).map((row) => row.player));
  return Object.fromEntries(Object.entries(state.lights).map(([name, light]) =>
    [name, light.by && theirs.has(light.by) && light.role === "suggestion"
      ? {...light, colour: state.players[light.by].colour} : light]));
}

function drawBoard(svg, view, lights, players) {
  svg.replaceChildren();
  // Every place is the board's own, [x, y, level] in hole spacings (y up): the page
  // reads no place off a name.
  const holes = view.holes;
  const all = Object.values(holes).concat(Object.values(view.places));
  const xs = all.map((p) => p[0]), ys = all.map((p) => p[1]);
  const minX = Math.min(...xs) - 1, maxX = Math.max(...xs) + 1;
  const minY = Math.min(...ys) - 1, maxY = Math.max(...ys) + 1;
  svg.setAttribute("viewBox", `${minX - 0.6} ${-maxY - 0.6} ${maxX - minX + 1.2} ${maxY - minY + 1.2}`);
  const at = (p) => [p[0], -p[1]];
  el("rect", {x: minX - 0.6, y: -maxY - 0.6, width: maxX - minX + 1.2, height: maxY - minY + 1.2,
              fill: WOOD, rx: 0.4}, svg);
  // Goal edges (Akron's sides): a bar in the player's colour just outside each row of
  // holes that player joins, on the side away from the board's middle, its ends short of
  // the corner so that two players' bars meeting there stay apart.
  const centre = [(minX + maxX) / 2, (minY + maxY) / 2];
  for (const [player, edges] of Object.entries(view.goal_edges || {})) {
    for (const edge of edges) {
      const [first, last] = [holes[edge[0]], holes[edge[edge.length - 1]]];
      const length = Math.hypot(last[0] - first[0], last[1] - first[1]);
      const along = [(last[0] - first[0]) / length, (last[1] - first[1]) / length];
      let out = [along[1], -along[0]];
      const middle = [(first[0] + last[0]) / 2, (first[1] + last[1]) / 2];
      if (out[0] * (middle[0] - centre[0]) + out[1] * (middle[1] - centre[1]) < 0) {
        out = [-out[0], -out[1]];
      }
      const [x1, y1] = at([first[0] + 0.62 * out[0] - 0.4 * along[0], first[1] + 0.62 * out[1] - 0.4 * along[1]]);
      const [x2, y2] = at([last[0] + 0.62 * out[0] + 0.4 * along[0], last[1] + 0.62 * out[1] + 0.4 * along[1]]);
      el("line", {x1, y1, x2, y2, stroke: players[player].colour, "stroke-width": 0.16,
                  "stroke-linecap": "round", "data-goal": player}, svg);
    }
  }
  // Areas: loose pieces that share no hole (Kulami's panels) are the hull of their
  // holes widened around them; areas between holes (ConHex's cells, whose corners are
  // holes shared with their neighbours) are the polygon of their holes, outlined.
  const seen = new Set();
  const sharing = Object.values(view.areas).some(
    (members) => members.some((h) => seen.has(h) || !seen.add(h)));
  Object.entries(view.areas).forEach(([name, members], i) => {
    const points = members.filter((h) => holes[h]).map((h) => at(holes[h]));
    const light = lights[name];
    const fill = light ? light.colour : PANEL_TONES[i % PANEL_TONES.length];
    const shape = hull(points).map((p) => p.join(",")).join(" ");
    // A panel is its hull widened by a border of its own colour, edged in dark so two
    // panels side by side stay two; a shared-corner cell is its polygon, outlined.
    if (!sharing) {
      el("polygon", {points: shape, fill: "none", stroke: "#1a120b", "stroke-width": 0.9,
                     "stroke-linejoin": "round"}, svg);
    }
    el("polygon", {points: shape, fill, stroke: sharing ? "#000000aa" : fill,
                   "stroke-width": sharing ? 0.06 : 0.78, "stroke-linejoin": "round",
                   "fill-opacity": sharing && light ? 0.85 : 1,
                   class: light && light.blink ? "blink" : "", "data-area": name}, svg);
  });
  // The board's names of its columns and rows.
  // Their size grows with the board so that they stay readable on a phone's width.
  const labelSize = Math.max(0.45, (maxX - minX + 1.2) / 30);
  for (const [x, text] of view.labels.columns) {
    el("text", {x, y: -minY + 0.2, class: "label", "font-size": labelSize}, svg).textContent = text;
  }
  for (const [y, text] of view.labels.rows) {
    el("text", {x: minX + 0.1, y: -y + labelSize / 3, class: "label", "font-size": labelSize}, svg)
      .textContent = text;
  }
  const square = view.shape === "square";
  for (const [name, p] of Object.entries(holes)) {
    const [x, y] = at(p);
    const light = lights[name];
    if (square) {
      el("rect", {x: x - 0.46, y: y - 0.46, width: 0.92, height: 0.92, fill: HOLE,
                  "data-hole": name}, svg);
      if (light) el("rect", {x: x - 0.44, y: y - 0.44, width: 0.88, height: 0.88, fill: "none",
                             stroke: light.colour, "stroke-width": 0.12,
                             class: `light ${light.blink ? "blink" : ""}`, "data-light": name}, svg);
    } else {
      // The ring of LED light around a hole (narrower where balls fill the spacing).
      // A thin ring, so that a board lit all over (every hole a legal move) still shows
      // its panels; under a ball the light is drawn over it, below.
      const glow = (view.shape === "ball" ? 0.36 : 0.42);
      if (light && !(view.shape === "ball" && view.pieces[name])) el("circle", {cx: x, cy: y, r: glow, fill: light.colour,
                               class: `light ${light.blink ? "blink" : ""}`, "data-light": name}, svg);
      el("circle", {cx: x, cy: y, r: 0.28, fill: HOLE, "data-hole": name}, svg);
    }
  }
  // The pieces, lowest level first so a pile's upper balls lie on top.
  const pieces = Object.entries(view.pieces)
    .map(([name, owner]) => [name, owner, holes[name] || view.places[name]])
    .filter(([, , p]) => p)
    .sort((a, b) => a[2][2] - b[2][2]);
  for (const [name, owner, p] of pieces) {
    const [x, y] = at(p);
    const colour = players[owner].colour;
    if (square) {
      el("rect", {x: x - 0.42, y: y - 0.42, width: 0.84, height: 0.84, fill: colour, rx: 0.08,
                  stroke: "#ffffffaa", "stroke-width": 0.05, "data-piece": name, "data-owner": owner}, svg);
    } else {
      // A dark piece on a dark area keeps a light rim, a light one a dark rim.
      const r = view.shape === "ball" ? 0.48 : 0.34;
      el("circle", {cx: x, cy: y, r, fill: colour, stroke: dark(colour) ? "#e6e8ec" : "#000000aa",
                    "stroke-width": 0.06, "data-piece": name, "data-owner": owner}, svg);
    }
  }
  // Balls cover their holes and each other, so the light of a place with a ball is
  // drawn over it: a ring and a dot in the light's colour on the ball it marks.
  if (view.shape === "ball") {
    for (const [name, light] of Object.entries(lights)) {
      const p = view.pieces[name] && (holes[name] || view.places[name]);
      if (!p) continue;
      const [x, y] = at(p);
      const mark = el("g", {class: `light ${light.blink ? "blink" : ""}`, "data-light": name}, svg);
      el("circle", {cx: x, cy: y, r: 0.4, fill: "none", stroke: "#000000", "stroke-width": 0.2}, mark);
      el("circle", {cx: x, cy: y, r: 0.4, fill: "none", stroke: light.colour, "stroke-width": 0.13}, mark);
      el("circle", {cx: x, cy: y, r: 0.13, fill: light.colour, stroke: "#000000", "stroke-width": 0.03}, mark);
    }
  }
  for (const name of view.last) {
    const p = holes[name] || view.places[name];
    if (!p) continue;
    const [x, y] = at(p);
    el("circle", {cx: x, cy: y, r: 0.1, fill: "#ffffff", stroke: "#000", "stroke-width": 0.03,
                  class: "last", "data-last": name}, svg);
  }
}
