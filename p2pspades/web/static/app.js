// The page: one socket to the player's own p2pspades program, the screens it sends drawn as they come,
// and the person's keys and clicks sent back. The words are the program's (the `data-labels` of the page,
// and every snapshot); this script holds none of its own.

import { GameView, LobbyView, NoticeView } from "./view.js";

const labels = JSON.parse(document.documentElement.dataset.labels || "{}");
const app = document.getElementById("app");
const NAMED_KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "Enter", " ",
  "Escape", "Backspace", "Delete"]);
const VIEWS = { game: GameView, lobby: LobbyView };

let socket = null;
let view = null;
let kind = null;
let plays = true;
let farewell = null;
let failures = 0;

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function show(screen) {
  if (screen.kind !== kind) {
    const View = VIEWS[screen.kind] || NoticeView;
    view = new View(labels, send);
    kind = screen.kind;
    app.replaceChildren(view.el);
  }
  view.update(screen, plays);
  app.dataset.screen = screen.kind;
}

function notice(head, lines = []) {
  show({ kind: "notice", head, lines });
}

function receive(event) {
  const message = JSON.parse(event.data);
  if (message.t === "hello" || message.t === "role") {
    plays = message.plays;
    document.body.classList.toggle("watching", !plays);
  } else if (message.t === "screen") {
    show(message);
  } else if (message.t === "note") {
    document.getElementById("said").textContent = message.text;
  } else if (message.t === "bye") {
    farewell = message;
  }
}

function connect() {
  const url = new URL("ws", window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(url);
  socket.addEventListener("open", () => { failures = 0; farewell = null; });
  socket.addEventListener("message", receive);
  socket.addEventListener("close", () => {
    socket = null;
    if (farewell && !farewell.restarting) {
      notice(labels.ended, farewell.lines);
      return;
    }
    if (farewell) notice(farewell.restarting, farewell.lines);
    else if (kind !== null) notice(labels.reconnecting);
    failures += 1;
    window.setTimeout(connect, farewell ? 300 : Math.min(5000, 250 * failures));
  });
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
  const key = event.key;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return;
  if ((key === "Enter" || key === " ") && target instanceof Element && target.closest("button, a, summary")) {
    return; // the focused control's own click
  }
  if (!NAMED_KEYS.has(key) && !/^[A-Za-z0-9?]$/.test(key)) return;
  event.preventDefault();
  send({ do: "key", key });
});

document.getElementById("boot").textContent = labels.connecting || "";
connect();
