// The page: the board live from the table's snapshots (one WebSocket, no polling), the
// saved games replayed move by move, and the settings, which need this browser paired.
// The board is drawn by board.js (drawBoard), which the club's page draws with too.
"use strict";

const TOKEN_KEY = "tabletop-token";
let token = localStorage.getItem(TOKEN_KEY);
let latest = null;
let catalogue = null;
let mySeat = null;  // the colour this browser plays, if any (the server says: /api/me)
let askingResign = false;  // Resign was pressed: the page asks before it resigns

// --- the live view --------------------------------------------------------------------
function show(state) {
  const first = latest === null || latest.game !== state.game;
  latest = state;
  if (first && catalogue) {
    document.getElementById("game-choice").value = state.game;
    showOptions();
  }
  document.getElementById("title").textContent = `Tabletop: ${state.title}`;
  drawBoard(document.getElementById("board"), state.board, ownMoves(state), state.players);
  const status = state.status;
  const turn = status.turn ? `${state.players[status.turn].title} to move` : "Game over";
  document.getElementById("turn").textContent = turn;
  const message = document.getElementById("message");
  message.textContent = status.message;
  message.className = status.message_kind;
  const thinking = document.getElementById("thinking");
  thinking.hidden = status.thinking === null;
  if (status.thinking !== null) thinking.value = status.thinking;
  const each = ["b", "w"].map((p) => `${state.players[p].title} ${status.scores[p]}`).join(", ");
  let score = `${status.score_label}: ${each}`;
  if (status.in_hand) {
    score += `; ${status.hand}: ` + ["b", "w"].map((p) => `${state.players[p].title} ${status.in_hand[p]}`).join(", ");
  }
  document.getElementById("score").textContent = score;
  document.getElementById("options").textContent = `${status.options}; ${status.seats}`;
  const legend = document.getElementById("legend");
  // The legend names only what is lit now: a colour it names is on the board.
  const lit = new Set(Object.values(state.lights).map((light) => light.role));
  legend.replaceChildren(...state.legend.filter((entry) => lit.has(entry.role)).map((entry) => {
    const item = document.createElement("li");
    const lamp = document.createElement("span");
    lamp.className = "lamp";
    lamp.style.background = entry.player ? state.players[entry.player].colour : entry.colour;
    item.append(lamp, entry.meaning);
    return item;
  }));
  fillMoves(document.getElementById("moves"), status.moves);
  showSeats(state);
  const sheet = document.getElementById("sheet");
  sheet.replaceChildren(...state.sheet.concat(status.result ? [status.result.text] : [])
    .map((line) => Object.assign(document.createElement("p"), {textContent: line})));
  document.body.dataset.revision = state.revision;
  showFar(state.far);
  document.getElementById("club-tab").hidden = !state.club;
  if (window.picker) window.picker.show(state, mySeat, token);  // Blokus Duo's pieces (picker.js)
}

function fillMoves(list, moves) {
  const pairs = [];
  for (let i = 0; i < moves.length; i += 2) pairs.push(moves.slice(i, i + 2).join("  "));
  list.replaceChildren(...pairs.map((text) => Object.assign(document.createElement("li"), {textContent: text})));
  list.scrollTop = list.scrollHeight;
}

function connect() {
  const status = document.getElementById("connection");
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  socket.onopen = () => { status.textContent = "live"; status.className = "online"; };
  socket.onmessage = (event) => {
    const state = JSON.parse(event.data);
    if (state.game) show(state);
  };
  socket.onclose = () => {
    status.textContent = "reconnecting";
    status.className = "offline";
    setTimeout(connect, 1000);
  };
}

// --- a seat played from this browser ---------------------------------------------------
function button(text, action) {
  const b = Object.assign(document.createElement("button"), {textContent: text});
  b.onclick = action;
  return b;
}

function showSeats(state) {
  // Who plays each colour, and for a paired browser: take a seat, leave it, offer or
  // accept a takeback; at its turn, tap a lit hole or type the move.
  const box = document.getElementById("seats");
  const lines = ["b", "w"].map((colour) => {
    const line = document.createElement("p");
    const you = mySeat === colour;
    const seat = state.seating[colour];
    line.append(`${state.players[colour].title}: ${you ? "you, here" : seat.who} `);
    if (token && !you && seat.open && !state.held.includes(colour)) {
      line.append(button(`Play ${state.players[colour].name} from here`,
                         () => send({action: "take_seat", colour}).then(whoAmI)));
    }
    if (you) line.append(button("Leave the seat", () => send({action: "leave_seat"}).then(whoAmI)));
    return line;
  });
  box.replaceChildren(...lines);
  if (mySeat) {
    const offer = state.offer;
    if (offer && offer !== mySeat) box.append(button("Accept the takeback", () => send({action: "accept"})));
    else if (!offer && state.status.turn) box.append(button("Offer a takeback", () => send({action: "offer_takeback"})));
    showResign(box, state);
  }
  const myTurn = mySeat && state.status.turn === mySeat && state.legal.length > 0;
  const form = document.getElementById("move-form");
  form.hidden = !myTurn;
  suggestMoves();
  document.getElementById("board").classList.toggle("my-turn", Boolean(myTurn));
}

function showResign(box, state) {
  // On this browser's turn it may resign its colour; it asks first, so that a stray tap
  // ends no game. The question lasts only while that turn does.
  if (state.status.turn !== mySeat) { askingResign = false; return; }
  if (!askingResign) {
    box.append(button("Resign", () => { askingResign = true; show(latest); }));
    return;
  }
  const winner = state.players[mySeat === "b" ? "w" : "b"].title;
  const question = document.createElement("p");
  question.id = "resign-question";
  question.textContent = `Resign for ${state.players[mySeat].title}? The game ends here and ${winner} wins.`;
  box.append(question,
             button("Yes, resign", () => { askingResign = false; send({action: "resign"}); }),
             button("Play on", () => { askingResign = false; show(latest); }));
}

// The move input's suggestions: at most this many, those that begin with what is typed.
// A game played by holes has a board's worth of legal moves (64 in Kulami, 69 in ConHex,
// 72 at most in Akron, measured), which all fit; more is a list no one reads to the end
// (828 placements in Blokus Duo's first position, where the picker plays instead), and
// every entry is a node built anew at each letter typed. The list narrows as the player
// types, so the bound hides no move that a further letter would not bring back.
const SUGGESTIONS = 100;

function suggestMoves() {
  // Built only while the input has the focus: a form hidden (not this browser's turn, or
  // the piece picker taking it) cannot have it, so no list is built for no one.
  const input = document.getElementById("move");
  const typing = document.activeElement === input && latest && latest.status.turn === mySeat;
  const typed = input.value.trim().toLowerCase();
  const moves = typing ? latest.legal.filter((m) => m.toLowerCase().startsWith(typed)) : [];
  document.getElementById("legal-moves").replaceChildren(
    ...moves.slice(0, SUGGESTIONS).map((m) => new Option(m, m)));
}

async function whoAmI() {
  if (!token) { mySeat = null; return; }
  const answer = await fetch("/api/me", {headers: {"X-Tabletop-Token": token}});
  const me = await answer.json();
  if (!me.paired) { localStorage.removeItem(TOKEN_KEY); token = null; paired(false); }
  mySeat = me.seat;
  if (latest) show(latest);
}

function tapBoard(event) {
  // A tap on a hole plays it, when it is one of this browser's legal moves now.
  const target = event.target.closest("[data-hole], [data-light], [data-piece]");
  if (!target || !latest || !latest.legal.length || latest.status.turn !== mySeat) return;
  const name = target.dataset.hole || target.dataset.light || target.dataset.piece;
  if (latest.legal.includes(name)) send({action: "move", move: name});
  else document.getElementById("move").value = name;
}

// --- changing the table ---------------------------------------------------------------
function paired(yes) {
  document.body.classList.toggle("paired", yes);
}

async function send(body) {
  const error = document.getElementById("command-error");
  error.textContent = "";
  const answer = await fetch("/api/command", {
    method: "POST", headers: {"Content-Type": "application/json", "X-Tabletop-Token": token || ""},
    body: JSON.stringify(body)});
  if (answer.status === 401) { paired(false); localStorage.removeItem(TOKEN_KEY); }
  if (!answer.ok) {
    const why = (await answer.json()).error;
    error.textContent = why;
    document.getElementById("command-note").textContent = why;
    document.getElementById("far-error").textContent = why;
  } else {
    document.getElementById("command-note").textContent = "";
    document.getElementById("far-error").textContent = "";
  }
  return answer.ok;
}

async function pair(event) {
  event.preventDefault();
  const error = document.getElementById("pair-error");
  error.textContent = "pairing...";
  const answer = await fetch("/api/pair", {method: "POST", headers: {"Content-Type": "application/json"},
                                           body: JSON.stringify({code: document.getElementById("code").value})});
  const body = await answer.json();
  if (answer.ok) {
    token = body.token;
    localStorage.setItem(TOKEN_KEY, token);
    error.textContent = "";
    paired(true);
    farSeen = null;  // the invitation's code is this browser's to see now
    whoAmI();
  } else {
    error.textContent = body.error;
  }
}

async function loadCatalogue() {
  catalogue = await (await fetch("/api/catalogue")).json();
  const choice = document.getElementById("game-choice");
  choice.replaceChildren(...catalogue.games.map((g) => new Option(g.title, g.name)));
  document.getElementById("level").replaceChildren(...catalogue.levels.map(
    (l) => new Option(`${l.level} (${l.words})`, String(l.level), false, l.level === catalogue.level)));
  choice.onchange = showOptions;
  if (latest) choice.value = latest.game;
  showOptions();
  const farGame = document.getElementById("far-game");
  farGame.replaceChildren(...catalogue.games.map((g) => new Option(g.title, g.name)));
  farGame.onchange = showFarOptions;
  showFarOptions();
}

function showOptions() {
  // A table may show a game its menu does not start (a page made only to be pictured).
  const game = catalogue.games.find((g) => g.name === document.getElementById("game-choice").value);
  if (!game) return;
  document.getElementById("game-options").replaceChildren(...optionChoices(game));
  // The seats by the chosen game's colours ("Black plays", not "First player").
  for (const colour of ["b", "w"]) {
    document.getElementById(`seat-${colour}-name`).textContent = game.players[colour];
  }
}

function optionChoices(game) {
  // One select a game option, offering the values the touch screen's menu offers.
  return game.options.map((option) => {
    const label = document.createElement("label");
    const select = document.createElement("select");
    select.dataset.key = option.key;
    select.append(...option.values.map((v) => new Option(v.words, JSON.stringify(v.value))));
    label.append(`${option.label} `, select);
    return label;
  });
}

function chosenOptions(box) {
  const options = {};
  for (const select of box.querySelectorAll("select")) options[select.dataset.key] = JSON.parse(select.value);
  return options;
}

async function newGame(event) {
  event.preventDefault();
  // A game in progress is replaced only when the person says so.
  const playing = latest && latest.status.turn && latest.status.moves.length > 0;
  if (playing && !window.confirm(`Replace the ${latest.title} game in progress (${latest.status.moves.length} moves)? It stays in Games.`)) {
    return;
  }
  const options = chosenOptions(document.getElementById("game-options"));
  await send({action: "new_game", game: document.getElementById("game-choice").value, options,
              seats: {b: document.getElementById("seat-b").value, w: document.getElementById("seat-w").value},
              level: Number(document.getElementById("level").value)});
}

async function readSettings() {
  // The slider starts at the table's brightness as it is now (null: not read yet).
  const settings = await (await fetch("/api/settings")).json();
  if (settings.brightness !== null) document.getElementById("brightness").value = settings.brightness;
}

async function refreshLog() {
  const answer = await fetch("/api/log", {headers: {"X-Tabletop-Token": token || ""}});
  if (answer.ok) document.getElementById("log").textContent = (await answer.json()).join("\n");
}

// --- a board far away ------------------------------------------------------------------
// The snapshot says how an invitation stands, without its code (any browser on the
// network reads it); a paired browser asks for the code, its link and QR code whenever
// that changes (farSeen counts the changes).
let farSeen = null;
let farLine = null;  // the line with its code, as a paired browser read it: {seen, line}

function showFar(far) {
  document.getElementById("far-tab").hidden = !far;
  if (!far) return;
  const line = document.getElementById("far-line");
  const shown = farLine && farLine.seen === far.seen ? farLine.line : far.line;
  line.textContent = shown || "No invitation now: invite the other board, or join its invitation.";
  line.className = far.phase === "failed" ? "error" : "";
  document.getElementById("far-cancel").hidden = !far.busy;
  // While an invitation is under way, Cancel ends it; a new one starts after.
  document.getElementById("far-invite").hidden = far.busy;
  document.getElementById("far-join").hidden = far.busy;
  if (far.seen !== farSeen) {
    farSeen = far.seen;
    readInvitation(far.seen);
  }
}

async function readInvitation(seen) {
  const box = document.getElementById("far-invitation");
  const answer = token ? await fetch("/api/far", {headers: {"X-Tabletop-Token": token}}) : null;
  const invitation = answer && answer.ok ? await answer.json() : null;
  if (invitation && seen === farSeen) {
    farLine = {seen, line: invitation.line};
    if (latest) showFar(latest.far);
  }
  // The code, link and QR code only while the offer waits on the broker for the other board.
  box.hidden = !(invitation && invitation.link);
  if (box.hidden) return;
  document.getElementById("far-code").textContent = invitation.code;
  const link = document.getElementById("far-link");
  link.textContent = link.href = invitation.link;
  document.getElementById("far-qr").src = invitation.qr;
}

function showFarOptions() {
  const game = catalogue.games.find((g) => g.name === document.getElementById("far-game").value);
  if (!game) return;
  document.getElementById("far-options").replaceChildren(...optionChoices(game));
  const colour = document.getElementById("far-colour");
  colour.replaceChildren(new Option(`${game.players.b} (starts)`, "b"), new Option(game.players.w, "w"));
}

async function invite(event) {
  event.preventDefault();
  await send({action: "far_offer", game: document.getElementById("far-game").value,
              options: chosenOptions(document.getElementById("far-options")),
              colour: document.getElementById("far-colour").value});
}

async function join(event) {
  event.preventDefault();
  await send({action: "far_join", code: document.getElementById("far-join-code").value});
}

function joinFromLink() {
  // A link of an invitation (#join=CODE, scanned off the other board's page) opens the
  // Join form with its code filled in; the person pairs and presses Join.
  const found = /^#join=([0-9A-Za-z-]{1,12})$/.exec(location.hash);
  if (!found) return;
  document.getElementById("far-join-code").value = found[1];
  history.replaceState(null, "", location.pathname);
  switchTo("far");
}

// --- saved games ----------------------------------------------------------------------
async function listGames() {
  const games = await (await fetch("/api/games")).json();
  const body = document.querySelector("#game-list tbody");
  body.replaceChildren(...games.map((entry) => {
    const row = document.createElement("tr");
    const cells = [entry.title, entry.players || "", new Date(entry.date).toLocaleString(),
                   entry.moves ?? "", entry.loads ? entry.result : entry.problem];
    for (const text of cells) row.append(Object.assign(document.createElement("td"), {textContent: String(text)}));
    const open = document.createElement("td");
    if (entry.loads) {
      const button = Object.assign(document.createElement("button"), {textContent: "Replay"});
      button.onclick = () => replay(entry.name);
      open.append(button);
    }
    row.append(open);
    row.dataset.name = entry.name;
    return row;
  }));
}

async function replay(name) {
  const game = await (await fetch(`/api/games/${encodeURIComponent(name)}`)).json();
  const box = document.getElementById("replay");
  box.hidden = false;
  document.getElementById("replay-title").textContent = `${game.title}: ${game.name}`;
  document.getElementById("download").href = `/api/games/${encodeURIComponent(name)}/record`;
  document.getElementById("replay-result").textContent = game.sheet.concat([game.result]).join(" · ");
  let ply = game.moves.length;
  const draw = () => {
    drawBoard(document.getElementById("replay-board"), game.positions[ply], {}, game.players);
    document.getElementById("ply").textContent = ply ? `move ${ply}: ${game.moves[ply - 1]}` : "start";
  };
  document.getElementById("first").onclick = () => { ply = 0; draw(); };
  document.getElementById("back").onclick = () => { ply = Math.max(0, ply - 1); draw(); };
  document.getElementById("forward").onclick = () => { ply = Math.min(game.moves.length, ply + 1); draw(); };
  document.getElementById("last").onclick = () => { ply = game.moves.length; draw(); };
  draw();
  box.scrollIntoView({block: "start"});  // below the list, out of sight without this
}

// --- the page -------------------------------------------------------------------------
function switchTo(view) {
  for (const section of document.querySelectorAll(".view")) section.hidden = section.id !== view;
  for (const button of document.querySelectorAll("nav button")) {
    button.classList.toggle("current", button.dataset.view === view);
  }
  if (view === "games") listGames();
  if (view === "settings") readSettings();
}

window.addEventListener("DOMContentLoaded", () => {
  paired(Boolean(token));
  for (const button of document.querySelectorAll("nav button")) button.onclick = () => switchTo(button.dataset.view);
  for (const button of document.querySelectorAll("[data-command]")) {
    button.onclick = () => send({action: button.dataset.command});
  }
  document.getElementById("pair-form").onsubmit = pair;
  document.getElementById("new-game").onsubmit = newGame;
  document.getElementById("brightness-form").onsubmit = (event) => {
    event.preventDefault();
    send({action: "brightness", value: Number(document.getElementById("brightness").value)});
  };
  document.getElementById("refresh-log").onclick = refreshLog;
  document.getElementById("far-invite").onsubmit = invite;
  document.getElementById("far-join").onsubmit = join;
  document.getElementById("far-cancel").onclick = () => send({action: "far_cancel"});
  joinFromLink();
  document.getElementById("board").addEventListener("click", tapBoard);
  for (const event of ["focus", "input"]) document.getElementById("move").addEventListener(event, suggestMoves);
  document.getElementById("move-form").onsubmit = (event) => {
    event.preventDefault();
    send({action: "move", move: document.getElementById("move").value});
  };
  loadCatalogue();
  whoAmI();
  connect();
});
