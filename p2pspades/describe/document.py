"""The frame of the game's page (`describe.page`): the HTML document, its style sheet and its script, all
inline, so the page fetches nothing and works from a file:// URL; and `t`, how any text reaches the page."""

from __future__ import annotations

import html
from collections.abc import Sequence

from p2pspades.i18n import _, page_lang
from p2pspades.printable import printable


def t(text: object) -> str:
    """Text from anywhere (a log, a file name) as HTML text: made printable, then escaped."""
    return html.escape(printable(text), quote=True)


def document(title: str, body: Sequence[str]) -> str:
    """The whole page: `body`'s sections under `title`, with the style sheet and the script inline, in the
    language spoken (its `lang`; the stepper's words, which the script writes, in `data-` attributes)."""
    # TRANSLATORS: the trick stepper's position, before the first trick and at trick {n} of {total}
    dealt, at = _("As dealt, before trick 1"), _("Trick {n} of {total}")
    return (
        f'<!DOCTYPE html>\n<html lang="{page_lang()}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{t(title)}</title><style>{_CSS}</style></head><body>"
        f'<main data-dealt="{t(dealt)}" data-at="{t(at)}">'
        + "\n".join(body)
        + f"</main><script>{_JS}</script></body></html>\n"
    )


_CSS = """
:root{--ink:#1a1a1a;--soft:#555;--line:#c8c8c8;--bg:#fff;--panel:#f4f4f1}
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
color:var(--ink);background:var(--bg)}
main{max-width:62rem;margin:0 auto;padding:1rem}
h1{font-size:1.4rem;margin:0 0 .3rem}
h2{font-size:1.25rem;margin:1.6rem 0 .6rem;border-bottom:1px solid var(--line)}
h3{font-size:1.05rem;margin:1rem 0 .3rem}h4{font-size:1rem;margin:0}
a{color:#0b4ea2}a:focus,button:focus,section:focus{outline:3px solid #0b4ea2;outline-offset:2px}
code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.9em;overflow-wrap:anywhere}
.hex{display:block;max-height:8rem;overflow:auto;font-size:.75em}
.verdict{border:2px solid;border-radius:.4rem;padding:.8rem 1rem}
.verdict.complete{background:#e3f3e6;border-color:#1d6b33;color:#0c3d1a}
.verdict.violation,.verdict.unreadable,.verdict.unsettled{background:#fde8ea;border-color:#a01228;color:#5c0714}
.verdict.abandoned,.verdict.incomplete,.verdict.left,.verdict.stopped{background:#fff3d1;border-color:#8a6100;color:#4a3400}
.summary{margin:.2rem 0;overflow-wrap:anywhere}.outcome{margin:.2rem 0;font-size:1.15rem;font-weight:700}
nav ul,.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.3rem 1rem;margin:.6rem 0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{color:var(--soft)}
dd{margin:0;overflow-wrap:anywhere}
table{border-collapse:collapse;margin:.4rem 0}caption{text-align:left;color:var(--soft)}
th,td{border:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
.scroll{overflow-x:auto}
.chart{width:100%;height:auto;max-width:40rem;background:var(--panel)}
.chart text{font-size:12px;fill:#333}.chart .bags{font-size:11px}
.chart .axis{stroke:#888;stroke-dasharray:3 3}
figure{margin:0}
.deal{display:grid;gap:.5rem;grid-template-columns:repeat(auto-fit,minmax(11rem,1fr));align-items:start}
.deal.players-4{grid-template-columns:1fr 1fr 1fr;grid-template-areas:". n ." "w c e" ". s ."}
.players-4 .p0{grid-area:s}.players-4 .p1{grid-area:w}.players-4 .p2{grid-area:n}.players-4 .p3{grid-area:e}
.players-4 .centre{grid-area:c}
.seat,.centre{background:var(--panel);border:1px solid var(--line);border-radius:.4rem;padding:.4rem .5rem}
.seat p{margin:.1rem 0;color:var(--soft)}
.suits{list-style:none;margin:.2rem 0 0;padding:0}
.suit{display:inline-block;width:1.1em}
.red{color:#b3001b}
.cd{white-space:nowrap}.seat .cd{padding:0 .05em}
.seat .cd.played{color:#8a8a8a;text-decoration:line-through}
.seat .cd.now{background:#ffe27a;color:#000;border-radius:.2em;outline:1px solid #8a6100}
.tag{font-size:.75em;border:1px solid currentColor;border-radius:.3em;padding:0 .25em;white-space:nowrap}
.tricks{list-style:none;padding:0;margin:.3rem 0}.tricks p{margin:.1rem 0;font-weight:600}
.tricks ol{list-style:none;padding:0;margin:0}.won{font-weight:700}
.stepper{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center}
button{font:inherit;padding:.35rem .7rem;border:1px solid #333;border-radius:.3rem;background:#fff;color:#111;
min-height:2.6rem;cursor:pointer}button:disabled{color:#777;border-color:#aaa;cursor:default}
.bad{color:#8a0f20}
.timeline{padding-left:1.4rem}.timeline li{margin:.4rem 0}.timeline p{margin:.1rem 0}
.logs{display:grid;gap:.6rem;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr))}
.log{border:2px solid var(--line);border-radius:.4rem;padding:.5rem;overflow-wrap:anywhere}
.log.complete{border-color:#1d6b33}.log.violation,.log.unreadable{border-color:#a01228}
.log.abandoned,.log.incomplete,.log.left,.log.stopped{border-color:#8a6100}
.chains tr.fork{background:#fff3d1}.chains td.upheld{background:#e3f3e6}
@media (max-width:40rem){main{padding:.5rem}
.deal.players-4{grid-template-columns:1fr 1fr;grid-template-areas:"n n" "w e" "c c" "s s"}}
"""

_JS = """
(function () {
  "use strict";
  var hands = Array.prototype.slice.call(document.querySelectorAll("section.hand"));
  var words = document.querySelector("main").dataset;
  var active = hands.length ? hands[0] : null;
  function show(sec, pos) {
    var tricks = sec.querySelectorAll(".tricks > li");
    var n = tricks.length;
    pos = Math.max(0, Math.min(n, pos));
    sec.setAttribute("data-pos", String(pos));
    for (var i = 0; i < n; i++) { tricks[i].hidden = (i !== pos - 1); }
    var cards = sec.querySelectorAll(".seat .cd[data-t]");
    for (var j = 0; j < cards.length; j++) {
      var at = Number(cards[j].getAttribute("data-t"));
      cards[j].classList.toggle("played", at < pos - 1);
      cards[j].classList.toggle("now", at === pos - 1);
    }
    sec.querySelector(".pos").textContent =
      pos === 0 ? words.dealt : words.at.replace("{n}", String(pos)).replace("{total}", String(n));
    sec.querySelector('[data-step="-1"]').disabled = pos === 0;
    sec.querySelector('[data-step="1"]').disabled = pos === n;
  }
  function step(sec, delta) { show(sec, Number(sec.getAttribute("data-pos")) + delta); }
  hands.forEach(function (sec) {
    sec.querySelector(".stepper").hidden = false;
    show(sec, 0);
    sec.addEventListener("focusin", function () { active = sec; });
    sec.addEventListener("click", function (e) {
      active = sec;
      var b = e.target.closest("button[data-step]");
      if (b) { step(sec, Number(b.getAttribute("data-step"))); }
    });
  });
  document.addEventListener("keydown", function (e) {
    if (!active || e.altKey || e.ctrlKey || e.metaKey) { return; }
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      step(active, e.key === "ArrowRight" ? 1 : -1);
      e.preventDefault();
    }
  });
})();
"""
