// The screens, drawn from the peer's snapshots. Nothing here knows a rule of the game: the cards lit, the
// bids offered and every word come in the snapshot; a click only tells the peer what was clicked.

import { h, redraw, setAttr, setText, sync, toggle } from "./dom.js";
import { back, face, small, suitIcon } from "./cards.js";

const live = (id) => document.getElementById(id);

// A button; clicked with the mouse it gives the keyboard back to the page (so Enter plays the chosen card
// rather than clicking the same button again); reached with Tab it keeps the focus.
function button(label, onclick, props = {}) {
  const click = (event) => {
    onclick(event);
    if (event.detail > 0) event.currentTarget.blur();
  };
  return h("button", { type: "button", onclick: click, ...props }, label);
}

function table(caption, head, rows, cls = "") {
  return h("table", { class: cls },
    caption ? h("caption", {}, caption) : null,
    h("thead", {}, h("tr", {}, head.map((cell) => h("th", { scope: "col" }, cell)))),
    h("tbody", {}, rows.map((row) => h("tr", { class: row.cls || null },
      row.cells.map((cell, i) => (i === 0 ? h("th", { scope: "row" }, cell) : h("td", {}, cell)))))));
}

// ------------------------------------------------------------------------------------------ the game
export class GameView {
  constructor(labels, send) {
    this.L = labels;
    this.send = send;
    this.d = 0;
    const L = labels;
    const tool = (name, label, key) => button(label, () => send({ do: "window", name }),
      { class: "tool", "data-window": name, "aria-keyshortcuts": key, title: `${label} (${key})` });
    this.title = h("h1", { class: "title" });
    this.scores = h("ul", { class: "scores", "aria-label": L.points });
    this.coachButton = button(L.coach, () => send({ do: "coach" }), { class: "tool", "aria-keyshortcuts": "h",
      title: `${L.coach} (h)` });
    this.waitButton = button(L.wait_longer, () => send({ do: "wait" }), { class: "tool warn",
      "aria-keyshortcuts": "w", title: `${L.wait_longer} (w)` });
    this.stopButton = button(L.stop_here, () => send({ do: "stop" }), { class: "tool",
      "aria-keyshortcuts": "x", title: `${L.stop_here} (x)` });
    this.leaveButton = button(L.leave, () => send({ do: "leave" }), { class: "tool leave" });
    this.confirmBox = h("input", { type: "checkbox", onchange: (e) => send({ do: "confirm_card",
      on: e.target.checked }) });
    this.coloursBox = h("input", { type: "checkbox", onchange: (e) => this.colours(e.target.checked) });
    this.coloursBox.checked = localStorage.getItem("p2pspades.colours") === "4";
    this.colours(this.coloursBox.checked);
    this.watchBanner = h("p", { class: "banner", hidden: true, role: "status" }, L.watching);
    this.seats = h("div", { class: "seats" });
    this.trickTitle = h("h2", { class: "trick-title", id: "trick-h" });
    this.trick = h("div", { class: "trick" });
    this.caption = h("p", { class: "caption" });
    this.contracts = h("ul", { class: "contracts", "aria-label": L.seats });
    this.events = h("ol", { class: "events" });
    this.prompt = h("p", { class: "prompt" });
    this.dialog = h("div", { class: "dialog", hidden: true, role: "group", "aria-labelledby": "dialog-h" });
    this.confirm = h("div", { class: "confirm", hidden: true });
    this.passBar = h("div", { class: "passbar", hidden: true });
    this.handTitle = h("h2", { class: "hand-title", id: "hand-h" });
    this.hand = h("ul", { class: "hand", "aria-labelledby": "hand-h" });
    this.layer = h("div", { class: "layer", hidden: true });
    this.felt = h("section", { class: "felt", "aria-labelledby": "trick-h",
      onclick: () => { if (this.overlay === "trick") send({ do: "close" }); } },
      this.seats, h("div", { class: "center" }, this.trickTitle, this.trick, this.caption));
    this.el = h("div", { class: "game" },
      h("header", { class: "bar" }, this.title, this.scores,
        h("nav", { class: "tools", "aria-label": L.menu },
          tool("scores", L.scores, "s"), tool("played", L.tracker, "p"), tool("last", L.last_trick, "l"),
          tool("help", L.help, "?"), this.coachButton, this.waitButton, this.stopButton, this.leaveButton),
        this.watchBanner),
      h("div", { class: "middle" }, this.felt,
        h("aside", { class: "side" },
          this.contracts,
          h("section", { class: "log", "aria-labelledby": "events-h" },
            h("h2", { id: "events-h" }, L.events), this.events),
          h("div", { class: "opts", role: "group", "aria-label": L.options },
            h("label", {}, this.confirmBox, " ", L.confirm_card),
            h("label", {}, this.coloursBox, " ", L.four_colours)))),
      h("section", { class: "bottom" }, this.prompt, this.dialog, this.confirm, this.passBar,
        this.handTitle, this.hand),
      this.layer);
  }

  colours(four) {
    document.body.classList.toggle("four-colours", four);
    localStorage.setItem("p2pspades.colours", four ? "4" : "2");
  }

  update(s, plays) {
    this.d = s.d;
    this.overlay = s.overlay;
    this.el.dataset.overlay = s.overlay || "";
    this.el.dataset.decision = String(s.d);
    const L = this.L;
    setText(this.title, s.title);
    document.title = s.title;
    this.watchBanner.hidden = plays;
    redraw(this.scores, s.scores, (scores) => scores.map((side) => h("li", { class: side.ours ? "ours" : "" },
      h("span", { class: "who" }, side.label), " ", h("b", {}, String(side.score)),
      side.bags === null ? null : h("small", {}, ` (${side.bags} ${L.bags})`))));
    this.coachButton.disabled = !s.coach;
    this.waitButton.hidden = !s.waiting;
    this.stopButton.hidden = !s.stop;
    this.confirmBox.checked = s.confirm_card;
    for (const tool of this.el.querySelectorAll("[data-window]")) {
      setAttr(tool, "aria-pressed", tool.dataset.window === s.overlay ? "true" : "false");
    }
    this.drawSeats(s);
    this.drawTrick(s);
    redraw(this.contracts, s.contracts, (lines) => lines.map((c) => h("li", { class: `level-${c.level}` }, c.text)));
    this.drawEvents(s.events);
    this.drawPrompt(s);
    this.drawDialog(s.dialog);
    this.drawHand(s);
    this.drawWindow(s);
    setText(live("turn"), s.turn);
    setText(live("told"), s.told);
  }

  drawSeats(s) {
    const n = s.players;
    sync(this.seats, s.seats, (seat) => seat.seat, () => {
      const el = h("div", { class: "seat" },
        h("div", { class: "plate" },
          h("span", { class: "name" }), h("span", { class: "dealer", title: this.L.dealer }, "D"),
          h("span", { class: "line" }), h("span", { class: "contract" }), h("span", { class: "conn" })),
        h("div", { class: "backs", "aria-hidden": "true" }));
      return el;
    }, (el, seat) => {
      el.className = `seat n${n} at${seat.at}${seat.turn ? " turn" : ""}${seat.you ? " you" : ""}` +
        (seat.side ? ` side-${seat.side}` : "");
      const [name, dealer, line, contract, conn] = el.firstChild.children;
      setText(name, seat.name);
      dealer.hidden = !seat.dealer;
      setText(line, seat.line);
      contract.hidden = !seat.contract;
      if (seat.contract) {
        setText(contract, seat.contract.text);
        contract.className = `contract level-${seat.contract.level}`;
      }
      setText(conn, [seat.bot, seat.thinking ? this.L.thinking : "", seat.you ? "" : seat.conn]
        .filter(Boolean).join(" · "));
      const backs = el.lastChild;
      const shown = seat.you ? 0 : Math.min(seat.held, 13);
      if (backs.children.length !== shown) backs.replaceChildren(...Array.from({ length: shown }, back));
    });
  }

  drawTrick(s) {
    const t = s.trick;
    setText(this.trickTitle, t.title);
    setText(this.caption, t.caption);
    this.trick.className = `trick n${s.players} ${t.mode}`;
    sync(this.trick, t.plays, (p) => `${p.seat}-${p.card.c}`, (p) => h("div", { class: "played" },
      h("span", { class: "card-on-table", role: "img", "aria-label": p.card.g }, face(p.card, this.L))),
    (el, p) => {
      el.className = `played at${p.at}${p.winning ? " winning" : ""}${p.led ? " led" : ""}`;
      el.dataset.card = p.card.c;
    });
  }

  drawEvents(events) {
    const box = this.events;
    const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 8;
    if (redraw(this.events, events, (list) => list.map((e) => h("li", { class: `level-${e.level}` }, e.text)))
      && atEnd) {
      box.scrollTop = box.scrollHeight;
    }
  }

  drawPrompt(s) {
    const p = s.prompt;
    setText(this.prompt, p.text);
    this.prompt.className = `prompt level-${p.level}`;
    if (p.level !== "status") setText(live("said"), p.text);
    this.confirm.hidden = !s.confirming;
    redraw(this.confirm, s.confirming, (card) => card && [
      button(`${this.L.play_card}: ${card.g}`, () => this.send({ do: "confirm" }), { class: "primary" }),
      button(this.L.choose_again, () => this.send({ do: "cancel" }))]);
    const pass = s.hand.pass;
    this.passBar.hidden = !pass;
    redraw(this.passBar, pass || null, (p) => p && [
      button(p.label, () => this.send({ do: "pass", d: this.d }), { class: "primary", disabled: !p.ready }),
      button(this.L.clear_marks, () => this.send({ do: "key", key: "Escape" }))]);
  }

  drawDialog(dialog) {
    this.dialog.hidden = !dialog;
    redraw(this.dialog, dialog, (d) => d && [
      h("h2", { id: "dialog-h" }, d.title),
      ...d.lines.map((line) => h("p", {}, line)),
      d.top ? h("div", { class: "top-card" }, h("span", { class: "card-on-table", role: "img",
        "aria-label": `${this.L.top_card}: ${d.top.g}` }, face(d.top, this.L))) : null,
      h("div", { class: `choices ${d.kind}` }, d.choices.map((c) => button(c.label,
        () => this.send({ do: "choose", a: c.a, d: this.d }),
        { class: `choice${c.selected ? " selected" : ""}`, "data-a": c.a }))),
      d.typed ? h("p", { class: "typed" }, d.typed) : null]);
  }

  drawHand(s) {
    const hand = s.hand;
    setText(this.handTitle, hand.title);
    const mode = hand.mode;
    toggle(this.hand, "choosing", Boolean(mode));
    if (!hand.cards.length) {
      this.hand.replaceChildren(h("li", { class: "empty" }, hand.empty));
      return;
    }
    if (this.hand.querySelector(".empty")) this.hand.replaceChildren();
    const hadFocus = this.hand.contains(document.activeElement);
    let selected = null;
    sync(this.hand, hand.cards, (c) => c.card.c, (c) => {
      const b = h("button", { type: "button", class: "card", "aria-label": c.card.g, "data-card": c.card.c },
        face(c.card, this.L));
      b.addEventListener("click", () => this.send({ do: "card", card: c.card.c, d: this.d }));
      return h("li", {}, b);
    }, (li, c) => {
      const b = li.firstChild;
      const off = Boolean(mode) && !c.legal;
      toggle(b, "legal", Boolean(mode) && c.legal);
      toggle(b, "illegal", off);
      toggle(b, "idle", !mode);
      toggle(b, "selected", c.selected);
      toggle(b, "marked", c.marked);
      toggle(b, "asking", Boolean(s.confirming) && s.confirming.c === c.card.c);
      setAttr(b, "aria-disabled", !mode || off ? "true" : null);
      setAttr(b, "aria-pressed", mode === "pass" ? String(c.marked) : null);
      setAttr(b, "aria-current", c.selected ? "true" : null);
      if (c.selected) selected = b;
    });
    if (hadFocus && selected && document.activeElement !== selected) selected.focus();
  }

  drawWindow(s) {
    const name = s.overlay && s.overlay !== "trick" ? s.overlay : null;
    const opened = this.layer.hidden && name;
    this.layer.hidden = !name;
    const data = name && { name, w: s.window, again: s.again, records: s.records };
    redraw(this.layer, data, (d) => d && this.window(d));
    if (opened) {
      const first = this.layer.querySelector("button.primary, button");
      if (first) first.focus();
    }
  }

  window(d) {
    const L = this.L;
    const close = (label = L.close) => button(label, () => this.send({ do: "key", key: "Escape" }),
      { class: "primary" });
    const parts = {
      help: () => [h("h2", { id: "window-h" }, L.help),
        h("dl", { class: "keys" }, d.w.keys.map(([k, what]) => [h("dt", {}, k), h("dd", {}, what)])),
        h("p", { class: "hint" }, d.w.rules), close()],
      scores: () => [h("h2", { id: "window-h" }, L.scores), this.sheet(d.w), close()],
      played: () => [h("h2", { id: "window-h" }, L.tracker), this.tracker(d.w), close()],
      last: () => [h("h2", { id: "window-h" }, L.last_trick), this.lastTrick(d.w), close()],
      summary: () => [h("h2", { id: "window-h" }, d.w.title), ...this.summary(d.w),
        button(L.continue, () => this.send({ do: "close" }), { class: "primary" })],
      over: () => [h("h2", { id: "window-h" }, d.w.title), ...this.over(d.w, d.again || [], d.records)],
      quit: () => [h("h2", { id: "window-h" }, L.leave), ...d.w.lines.map((line) => h("p", {}, line)),
        h("div", { class: "buttons" },
          button(L.yes_leave, () => this.send({ do: "quit", yes: true }), { class: "danger" }),
          button(L.no_stay, () => this.send({ do: "quit", yes: false }), { class: "primary" }))],
      stop: () => [h("h2", { id: "window-h" }, L.stop_here), ...d.w.lines.map((line) => h("p", {}, line)),
        h("div", { class: "buttons" },
          button(d.w.proposing ? L.propose : L.agree, () => this.send({ do: "stop_answer", answer: "yes" }),
            { class: "primary" }),
          button(L.play_on, () => this.send({ do: "stop_answer", answer: "no" })),
          ...(d.w.proposing ? [] : [button(L.later, () => this.send({ do: "stop_answer", answer: "later" }))]))],
    };
    const draw = parts[d.name];
    return h("div", { class: `window w-${d.name}`, role: "dialog", "aria-modal": "true",
      "aria-labelledby": "window-h" }, draw ? draw() : close());
  }

  sheet(w) {
    const L = this.L;
    if (!w.rows.length) return [h("p", {}, L.no_hand_yet), h("p", { class: "hint" }, w.target)];
    const head = [L.hand];
    for (const side of w.sides) head.push(`${side}: ${L.bid}`, L.won, L.points, L.total, L.bags);
    const rows = w.rows.map((r) => ({ cells: [String(r.hand), ...r.cells.flatMap((c) =>
      [c.bids, String(c.won), c.points, String(c.total), c.bags === null ? "-" : String(c.bags)])] }));
    return [h("div", { class: "scroll" }, table(null, head, rows, "sheet")), h("p", { class: "hint" }, w.target)];
  }

  tracker(w) {
    const L = this.L;
    if (!w.rows.length) return h("p", {}, L.not_dealt);
    return table(null, ["", L.played, L.still_out], w.rows.map((r) => ({
      cells: [suitIcon(r.suit, `row-pip suit-${r.suit}`), h("span", { class: "minis" }, r.played.map(small)),
        h("span", { class: "minis out" }, r.out.map(small))] })), "tracker");
  }

  lastTrick(w) {
    if (!w.plays.length) return h("p", {}, this.L.no_trick_yet);
    return h("ol", { class: "last" }, w.plays.map((p) => h("li", { class: p.won ? "won" : "" },
      h("span", { class: "who" }, p.name), " ", small(p.card), p.won ? h("b", {}, ` · ${this.L.takes}`) : null)));
  }

  summary(w) {
    const L = this.L;
    if (!w.players.length) return [h("p", {}, L.no_hand_yet)];
    return [
      h("p", { class: `verdict level-${w.verdict.level}` }, w.verdict.text),
      table(null, [L.player, L.bid, L.won], w.players.map((p) => ({ cells: [p.name, p.bid, p.won] })), "players"),
      h("ul", { class: "sides" }, w.sides.map((side) => h("li", {},
        h("b", {}, side.label), ` ${side.points} `, h("span", { class: "hint" }, side.words), h("br"), side.total))),
      ...w.violations.map((v) => h("p", { class: "level-bad" }, v)),
    ];
  }

  over(w, again, records) {
    const L = this.L;
    const out = [h("p", { class: `result level-${w.level}` }, w.text)];
    if (w.ended_by) out.push(h("p", { class: "hint" }, w.ended_by));
    out.push(table(null, [L.side, L.total, L.made, L.set, L.bags, L.per_hand], w.sides.map((side) => ({
      cls: side.won ? "winner" : "",
      cells: [side.label, String(side.total), String(side.made), String(side.set), String(side.bags), side.per_hand],
    })), "game-summary"));
    if (w.players) {
      const head = [L.player, L.nils, ...(w.players[0] && w.players[0].blind !== null ? [L.blind_nils] : [])];
      out.push(table(null, head, w.players.map((p) => ({
        cells: [p.name, p.nils, ...(p.blind !== null ? [p.blind] : [])] })), "nils"));
    }
    if (w.audited) out.push(h("p", { class: "hint" }, w.audited));
    const buttons = again.map((a) => button(a.label, () => this.send({ do: "again", kind: a.kind }),
      { class: "primary", title: a.hint, "data-again": a.kind }));
    if (records) {
      buttons.push(h("a", { href: "records", target: "_blank", rel: "noopener", class: "records",
        title: L.records_hint }, L.records));
    }
    buttons.push(button(L.close, () => this.send({ do: "done" })));
    out.push(h("div", { class: "buttons" }, buttons));
    return out;
  }
}

// ------------------------------------------------------------------------------------------ the lobby
export class LobbyView {
  constructor(labels, send) {
    this.L = labels;
    this.send = send;
    this.title = h("h1", { class: "title" });
    this.seats = h("div", { class: "lobby-seats" });
    this.warnings = h("ul", { class: "warnings" });
    this.rules = h("dl", { class: "rules" });
    this.hint = h("p", { class: "hint-line", "aria-live": "polite" });
    this.buttons = h("div", { class: "buttons" });
    this.watchBanner = h("p", { class: "banner", hidden: true, role: "status" }, labels.watching);
    this.el = h("div", { class: "lobby" },
      h("header", { class: "bar" }, this.title), this.watchBanner,
      h("section", { class: "panel", "aria-labelledby": "seated-h" },
        h("h2", { id: "seated-h" }, labels.seated), this.seats, this.warnings),
      h("section", { class: "panel", "aria-labelledby": "rules-h" },
        h("h2", { id: "rules-h" }, labels.rules), this.rules),
      this.hint, this.buttons);
  }

  update(s, plays) {
    const L = this.L;
    setText(this.title, s.title);
    document.title = s.title;
    this.watchBanner.hidden = plays;
    const control = { b: L.seat_bot, x: L.remove, s: L.switch_side, l: L.level };
    redraw(this.seats, s.seats, (rows) => table(null,
      [L.seat, L.side, L.name, L.fingerprint, L.state, ""],
      rows.map((r) => ({
        cls: `${r.you ? "you" : ""}${r.free ? " free" : ""}${r.selected ? " selected" : ""}`,
        cells: [String(r.seat), r.side, r.free ? L.free : (r.you ? `${r.name} (${L.you})` : r.name),
          r.free ? "" : h("code", {}, r.fingerprint), r.free ? "" : r.state,
          h("span", { class: "controls" }, r.controls.map((what) => button(
            what === "l" ? `${L.level}: ${r.level}` : control[what],
            () => this.send({ do: "seat", seat: r.seat, what }), { "data-what": what })))],
      })), "seated"));
    redraw(this.warnings, s.warnings, (list) => list.map((w) => h("li", { class: "level-warn" }, w)));
    redraw(this.rules, s.rules, (lines) => lines.map(([label, value]) => [h("dt", {}, label), h("dd", {}, value)]));
    setText(this.hint, s.hint);
    redraw(this.buttons, s.buttons, (list) => list.map((b, i) => button(L[b.do], () => this.send({ do: b.do }),
      { class: i === 0 ? "primary" : "", disabled: !b.enabled })));
  }
}

// ------------------------------------------------------------------------------------------ notices
export class NoticeView {
  constructor(labels) {
    this.L = labels;
    this.head = h("p", { class: "notice-head", role: "status" });
    this.lines = h("ol", { class: "console" });
    this.el = h("div", { class: "notice" }, h("h1", { class: "title" }, labels.app), this.head, this.lines);
  }

  update(s) {
    setText(this.head, s.head || "");
    redraw(this.lines, s.lines, (lines) => lines.map((line) => h("li", {}, line)));
  }
}
