// The piece picker, for a game played with shaped pieces (Blokus Duo) from a browser's
// seat: the pieces its player has left, drawn small; Turn and Flip; the chosen piece
// previewed on the board under the pointer (or the keyboard's cursor), outlined where it
// is legal and crossed where not; a tap puts it there and only Play sends it. The
// shapes, the pieces left and every legal move with its squares come from the engine
// (/api/pieces): the page turns a shape and looks its squares up in that list, so it
// judges no move and knows no game. app.js calls picker.show(state, seat, token) after
// every snapshot.
"use strict";

const picker = (() => {
  const SVG_NS = "http://www.w3.org/2000/svg";
  let state = null, seat = null, token = null, data = null, asked = null;
  let chosen = null, cells = null, hover = null, put = null, cursor = null;
  const box = document.createElement("section");
  box.id = "picker";
  box.hidden = true;
  box.setAttribute("aria-label", "your pieces");

  function svgEl(name, attributes, parent) {
    const node = document.createElementNS(SVG_NS, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    if (parent) parent.appendChild(node);
    return node;
  }

  // --- a shape turned as a hand turns it: (x, y) cells, y up, lowest at 0 ---------------
  const normal = (list) => {
    const lx = Math.min(...list.map((c) => c[0])), ly = Math.min(...list.map((c) => c[1]));
    return list.map(([x, y]) => [x - lx, y - ly]).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  };
  const turn = () => { cells = normal(cells.map(([x, y]) => [y, -x])); };
  const flip = () => { cells = normal(cells.map(([x, y]) => [-x, y])); };
  function anchor() {  // the cell nearest the shape's middle sits under the pointer
    const mx = cells.reduce((s, c) => s + c[0], 0) / cells.length;
    const my = cells.reduce((s, c) => s + c[1], 0) / cells.length;
    return cells.reduce((best, c) => ((c[0] - mx) ** 2 + (c[1] - my) ** 2
      < (best[0] - mx) ** 2 + (best[1] - my) ** 2 ? c : best));
  }

  // --- where the piece lands, by the board's own places -------------------------------
  function holeAt(x, y) {
    for (const [name, p] of Object.entries(state.board.holes)) {
      if (Math.abs(p[0] - x) < 0.01 && Math.abs(p[1] - y) < 0.01) return name;
    }
    return null;
  }
  function squaresAt(hole) {
    const p = state.board.holes[hole];
    const [ax, ay] = anchor();
    const out = cells.map(([x, y]) => holeAt(p[0] - ax + x, p[1] - ay + y));
    return out.includes(null) ? null : out;
  }
  function moveFor(squares) {  // the engine's move covering exactly these squares
    if (!squares) return null;
    const key = [...squares].sort().join(" ");
    const found = (data.placements[chosen] || []).find((e) => e.squares.join(" ") === key);
    return found ? found.move : null;
  }

  // --- drawing ---------------------------------------------------------------------
  function drawShape(list, colour, size) {
    const svg = svgEl("svg", {viewBox: "-0.1 -0.1 5.2 5.2", width: size, height: size,
                              "aria-hidden": "true", focusable: "false"});
    const w = Math.max(...list.map((c) => c[0])) + 1, h = Math.max(...list.map((c) => c[1])) + 1;
    const ox = (5 - w) / 2, oy = (5 - h) / 2;
    for (const [x, y] of list) {
      svgEl("rect", {x: ox + x + 0.05, y: oy + (h - 1 - y) + 0.05, width: 0.9, height: 0.9,
                     fill: colour, stroke: "#ffffff", "stroke-width": 0.08}, svg);
    }
    return svg;
  }
  function drawPreview() {
    const board = document.getElementById("board");
    for (const old of board.querySelectorAll(".picker-layer")) old.remove();
    if (!active() || !chosen || !myTurn()) return;
    const layer = svgEl("g", {class: "picker-layer"}, board);
    for (const [hole] of Object.entries(state.board.holes)) {  // where it fits this way round
      if (moveFor(squaresAt(hole))) {
        const [x, y] = state.board.holes[hole];
        svgEl("circle", {cx: x, cy: -y, r: 0.12, class: "picker-fits", "data-fits": hole}, layer);
      }
    }
    const at = put ? put.hole : hover;
    if (!at) return;
    const squares = squaresAt(at);
    if (!squares) return;
    const legal = Boolean(moveFor(squares));
    const colour = state.players[seat].colour;  // a legal preview in the player's colour
    for (const name of squares) {
      const [x, y] = state.board.holes[name];
      svgEl("rect", {x: x - 0.45, y: -y - 0.45, width: 0.9, height: 0.9, fill: colour,
                     class: `picker-preview ${legal ? "legal" : "illegal"}`,
                     "data-preview": name}, layer);
      if (!legal) svgEl("path", {d: `M${x - 0.3} ${-y - 0.3}L${x + 0.3} ${-y + 0.3}M${x + 0.3} ${-y - 0.3}L${x - 0.3} ${-y + 0.3}`,
                                 class: "picker-cross"}, layer);
    }
  }

  function render() {
    // Shown from the first answer for this game on, kept (as it was) while the answer
    // for a newer position is on its way: hiding it until then let the typed move and
    // its input take its place for that while, at every change.
    box.hidden = !shown();
    const form = document.getElementById("move-form");
    if (form && shown()) form.hidden = true;  // the picker replaces typing squares
    if (!active()) { drawPreview(); return; }
    const left = data.left[seat];
    if (chosen && !left.includes(chosen)) chosen = cells = put = null;
    if (put) put.move = moveFor(put.squares);  // what is legal now, not at the last change
    const colour = state.players[seat].colour;
    const list = document.createElement("div");
    list.className = "picker-pieces";
    list.setAttribute("role", "group");
    list.setAttribute("aria-label", `${state.players[seat].title}'s pieces left: ${left.length}`);
    for (const name of left) {
      const shape = chosen === name ? cells : data.shapes[name];
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.piece = name;
      b.setAttribute("aria-pressed", String(chosen === name));
      b.setAttribute("aria-label", `piece ${name}, ${shape.length} squares`);
      b.append(drawShape(shape, colour, 40));
      b.onclick = () => choose(name);
      list.append(b);
    }
    const tools = document.createElement("div");
    tools.className = "picker-tools";
    const tool = (text, id, action, disabled) => {
      const b = Object.assign(document.createElement("button"), {type: "button", textContent: text, id});
      b.disabled = disabled;
      b.onclick = action;
      tools.append(b);
    };
    tool("Turn (R)", "picker-turn", () => { turn(); put = null; render(); }, !chosen);
    tool("Flip (F)", "picker-flip", () => { flip(); put = null; render(); }, !chosen);
    tool("Play", "picker-play", confirm, !(put && put.move));
    tool("Cancel", "picker-cancel", () => { put = null; render(); }, !put);
    const note = document.createElement("p");
    note.id = "picker-note";
    note.setAttribute("aria-live", "polite");
    note.textContent = !myTurn() ? "Your pieces (not your turn)"
      : !chosen ? "Choose a piece, then tap the board where it goes"
      : put ? (put.move ? `Play ${chosen} on ${put.squares.join(", ")}?`
                        : `${chosen} cannot go there`)
      : "Tap the board (or use the arrow keys and Enter) to put it down; R turns, F flips";
    box.replaceChildren(note, list, tools);
    drawPreview();
  }

  function choose(name) {
    if (chosen === name) { chosen = cells = put = null; } else {
      chosen = name;
      cells = normal(data.shapes[name]);
      put = null;
    }
    render();
  }
  function putAt(hole) {
    const squares = squaresAt(hole);
    if (!squares) return;
    cursor = hole;  // the keyboard goes on from the square last tapped
    put = {hole, squares, move: moveFor(squares)};
    render();
  }
  async function confirm() {
    if (!put || !put.move) return;
    const move = put.move;
    put = null;
    const answer = await fetch("/api/command", {
      method: "POST", headers: {"Content-Type": "application/json", "X-Tabletop-Token": token || ""},
      body: JSON.stringify({action: "move", move})});
    if (answer.ok) chosen = cells = null;
    else document.getElementById("picker-note").textContent = (await answer.json()).error;
    render();
  }

  const shown = () => Boolean(state && seat && data && data.left && Object.keys(data.shapes).length
                              && data.game === state.game);
  const active = () => shown() && data.revision === state.revision;
  const myTurn = () => active() && data.player === seat;
  const holeOf = (event) => {
    const target = event.target.closest && event.target.closest("#board [data-hole], #board [data-light], #board [data-piece], #board [data-preview], #board [data-fits]");
    if (!target) return null;
    const d = target.dataset;
    return d.hole || d.light || d.piece || d.preview || d.fits;
  };

  // A tap on the board is the picker's while it is shown (app.js's plays a hole at once),
  // and waits for nothing while the picker's answer for a new position is on its way.
  document.addEventListener("click", (event) => {
    if (!shown() || !event.target.closest || !event.target.closest("#board")) return;
    event.stopPropagation();
    const hole = holeOf(event);
    if (hole && chosen && myTurn()) putAt(hole);
  }, true);
  document.addEventListener("pointermove", (event) => {
    if (!active() || !chosen || put) return;
    const hole = holeOf(event);
    if (hole !== hover) { hover = hole; drawPreview(); }
  });
  document.addEventListener("keydown", (event) => {
    if (!active() || !chosen || !myTurn() || event.target.matches("input, select, textarea")) return;
    const key = event.key.toLowerCase();
    if (key === "r") { turn(); put = null; render(); } else if (key === "f") { flip(); put = null; render(); } else if (key === "escape") { put = null; render(); } else if (key.startsWith("arrow")) {
      const names = Object.keys(state.board.holes);
      const start = state.board.holes[cursor || hover || names[Math.floor(names.length / 2)]];
      const step = {arrowleft: [-1, 0], arrowright: [1, 0], arrowup: [0, 1], arrowdown: [0, -1]}[key];
      const next = holeAt(start[0] + step[0], start[1] + step[1]);
      if (next) { cursor = hover = next; put = null; drawPreview(); }
    } else if (key === "enter" && event.target.closest && !event.target.closest("button")) {
      if (put && put.move) confirm(); else if (cursor || hover) putAt(cursor || hover);
    } else return;
    event.preventDefault();
  });

  async function show(newState, newSeat, newToken) {
    state = newState; seat = newSeat; token = newToken;
    if (!box.isConnected) {
      const seats = document.getElementById("seats");
      if (seats) seats.after(box);
    }
    render();  // at once, with the pieces known so far (see render)
    if (seat && (!data || data.revision !== state.revision) && asked !== state.revision) {
      asked = state.revision;
      const answer = await fetch("/api/pieces");
      if (answer.ok) data = await answer.json();
      if (!data || data.revision !== state.revision) asked = null;
      render();
    }
  }
  return {show};
})();
window.picker = picker;
