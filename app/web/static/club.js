// The club's page (tabletop watch, and a board's own page at /club): every board of
// the club live, and one of them followed move by move, drawn by the board's own page's
// drawBoard (board.js). Every name and word here came from the broker, from anyone
// allowed to publish there: it is put in as text (textContent), never as markup.
"use strict";

let revision = null;   // the club's revision this page shows
let watching = null;   // the id of the board followed, if one is

function cell(row, content) {
  const td = document.createElement("td");
  if (content instanceof Node) td.append(content);
  else td.textContent = content;
  row.append(td);
  return td;
}

function state(board) {
  // The board's state in words: offline, the end, or whose turn.
  if (!board.game) return board.online ? "online, no game yet" : "offline";
  const words = board.end || (board.turn ? `${board.players[board.turn].title} to move` : board.state);
  return board.online ? words : `offline (${words})`;
}

function seats(board) {
  return ["b", "w"].map((c) => `${board.players[c].title}: ${board.seats[c]}`).join(" · ");
}

function showClub(club) {
  document.getElementById("title").textContent = `Tabletop club ${club.club}`;
  document.getElementById("home").hidden = !club.home;  // served by a board: back to its page
  const status = document.getElementById("connection");
  status.textContent = club.connected ? `live from ${club.broker}` : (club.failure || "connecting");
  status.className = club.connected ? "online" : "offline";
  const body = document.querySelector("#board-list tbody");
  body.replaceChildren(...club.boards.map((board) => {
    const row = document.createElement("tr");
    row.dataset.board = board.id;
    row.className = board.online ? "" : "offline";
    cell(row, board.name);
    cell(row, board.game ? board.title : "");
    cell(row, board.game ? seats(board) : "");
    cell(row, board.game && board.moves !== null ? String(board.moves) : "");
    cell(row, state(board));
    const open = Object.assign(document.createElement("button"), {textContent: "Watch"});
    open.disabled = !board.game;
    open.onclick = () => watch(board.id);
    cell(row, open);
    return row;
  }));
  document.getElementById("empty").hidden = club.boards.length > 0;
  const dropped = club.dropped.malformed + club.dropped.oversized + club.dropped.crowded;
  document.getElementById("dropped").textContent = dropped
    ? `Messages dropped: ${club.dropped.malformed} malformed, ${club.dropped.oversized} too long, ${club.dropped.crowded} from boards beyond the most kept.`
    : "";
}

function showBoard(board) {
  document.getElementById("watched").textContent = `${board.name}: ${board.title || ""}`;
  document.getElementById("turn").textContent = state(board);
  document.getElementById("message").textContent = board.message || "";
  document.getElementById("seats").textContent = board.game ? seats(board) : "";
  const scores = board.scores || {};
  document.getElementById("score").textContent = board.game
    ? ["b", "w"].map((c) => `${board.players[c].title} ${scores[c] ?? 0}`).join(", ") : "";
  const svg = document.getElementById("board");
  if (board.view) drawBoard(svg, board.view, {}, board.players);
  else svg.replaceChildren();
  const moves = board.move_list || [];
  const pairs = [];
  for (let i = 0; i < moves.length; i += 2) pairs.push(moves.slice(i, i + 2).join("  "));
  const list = document.getElementById("moves");
  list.replaceChildren(...pairs.map((text) => Object.assign(document.createElement("li"), {textContent: text})));
  list.scrollTop = list.scrollHeight;
  if (!board.view && board.game) {
    list.replaceChildren(Object.assign(document.createElement("li"),
      {textContent: board.moves === null ? "too many moves to send" : ""}));
  }
  document.body.dataset.watched = `${board.id}:${board.revision}`;
}

async function refreshBoard() {
  if (!watching) return;
  const answer = await fetch(`/api/boards/${encodeURIComponent(watching)}`);
  if (answer.ok) showBoard(await answer.json());
}

function watch(id) {
  watching = id;
  document.getElementById("club").hidden = true;
  document.getElementById("live").hidden = false;
  refreshBoard();
}

async function follow() {
  // Each answer waits on the server for the next change after the revision shown.
  for (;;) {
    try {
      const since = revision === null ? "" : `?since=${revision}`;
      const club = await (await fetch(`/api/club${since}`)).json();
      revision = club.revision;
      showClub(club);
      document.body.dataset.revision = revision;
      await refreshBoard();
    } catch (error) {
      const status = document.getElementById("connection");
      status.textContent = "the watcher is not answering";
      status.className = "offline";
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

window.addEventListener("DOMContentLoaded", () => {
  document.getElementById("close").onclick = () => {
    watching = null;
    document.getElementById("live").hidden = true;
    document.getElementById("club").hidden = false;
  };
  follow();
});
