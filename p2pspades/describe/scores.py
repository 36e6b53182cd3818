"""The scores on the game's page (`page.py`): every side's total after each hand, as a chart (inline SVG,
a line per side, the bags carried at each point, a ring where they cost a penalty) and as a table."""

from __future__ import annotations

from collections.abc import Sequence

from p2pspades.describe import bonuses
from p2pspades.describe.document import t
from p2pspades.i18n import _, ngettext, pgettext
from p2pspades.rules import HandResult, RuleSet

_COLOURS = ("#1f4e9c", "#a3361c", "#2e6b1f", "#6d2c91", "#7a5a00")
_DASHES = ("", "6 3", "2 2", "8 3 2 3", "1 3")


def score_section(rules: RuleSet, hands: Sequence[HandResult], label: Sequence[str]) -> str:
    """The page's scores: the chart, then every side's total after each hand (`label`: the sides' names)."""
    head = "".join(f"<th scope=col>{t(x)}</th>" for x in label)
    rows = "".join(
        f"<tr><th scope=row>{h.number}</th>"
        + "".join(f"<td>{tot.score} <small>({t(bags_words(tot.bags))}"
                  f"{t(penalty_words(rules, h, i))})</small></td>" for i, tot in enumerate(h.totals))
        + "</tr>"
        for h in hands
    )
    caption, hand, title = _("Totals after each hand (bags carried)"), _("hand"), _("Scores")
    totals = (f'<div class="scroll"><table><caption>{t(caption)}</caption>'
              f"<thead><tr><th scope=col>{t(hand)}</th>{head}</tr></thead><tbody>{rows}</tbody></table>"
              "</div>")
    return (f'<section id="scores" aria-labelledby="scores-h"><h2 id="scores-h">{t(title)}</h2>'
            + _chart(rules, hands, label) + (totals if hands else "") + "</section>")


def bags_words(n: int) -> str:
    return ngettext("{n} bag", "{n} bags", n).format(n=n)


def penalty_words(rules: RuleSet, h: HandResult, side: int) -> str:
    """The bonuses and penalties of the side's hand score, after its bags: "; bag penalty -100"."""
    return "".join(f"; {words}" for words in bonuses(rules, h.scores[side]))


def _chart(rules: RuleSet, hands: Sequence[HandResult], label: Sequence[str]) -> str:
    """A line per side over the hands, a point per hand labelled with the bags carried, a ring where the
    bags cost a penalty."""
    if not hands:
        return "<p>" + t(_("No hand was finished.")) + "</p>"
    w, h, pad = 640, 260, 40
    scores = [0] + [tot.score for hr in hands for tot in hr.totals]
    lo, hi = min(scores), max(scores)
    span = max(hi - lo, 1)

    def x(i: int) -> float:
        return pad + i * (w - 2 * pad) / len(hands)

    def y(v: int) -> float:
        return h - pad - (v - lo) * (h - 2 * pad) / span

    parts = [f'<line class="axis" x1="{pad}" x2="{w - pad}" y1="{y(0):.1f}" y2="{y(0):.1f}"/>',
             f'<text x="4" y="{y(hi) + 4:.1f}">{hi}</text><text x="4" y="{y(lo) + 4:.1f}">{lo}</text>']
    for i in range(1, len(hands) + 1):
        parts.append(f'<text class="hand" x="{x(i):.1f}" y="{h - 8}">{i}</text>')
    for side, name in enumerate(label):
        colour, dash = _COLOURS[side % 5], _DASHES[side % 5]
        points = [(x(0), y(0))] + [(x(i), y(hr.totals[side].score)) for i, hr in enumerate(hands, start=1)]
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dashed} points="{path}"/>')
        for i, hr in enumerate(hands, start=1):
            tot, px, py = hr.totals[side], points[i][0], points[i][1]
            ring = hr.scores[side].penalty_points < 0
            point = _("{side} after hand {number}: {score}, {bags}").format(
                side=name, number=hr.number, score=tot.score, bags=bags_words(tot.bags))
            point += penalty_words(rules, hr, side)
            # TRANSLATORS: a chart's label of the bags a side carries, as short as can be ("3b")
            short = pgettext("bags", "{n}b").format(n=tot.bags)
            parts.append(
                f'<g class="point"><title>{t(point)}</title>'
                f'<circle cx="{px:.1f}" cy="{py:.1f}" r="{6 if ring else 3.5}" '
                f'fill="{"#fff" if ring else colour}" stroke="{colour}" stroke-width="2"/>'
                f'<text class="bags" x="{px + 5:.1f}" y="{py - 6 + 14 * side:.1f}" fill="{colour}">'
                f"{t(short)}</text></g>"
            )
    chart = _("Each side's total after each hand; the labels are the bags carried, a ring marks a bag "
              "penalty")
    caption = _('Labels: bags carried after the hand ("{short}"); a ring: the bags cost a penalty in that '
                "hand.").format(short=pgettext("bags", "{n}b").format(n=3))
    legend = "".join(
        f'<li><svg width="28" height="10" aria-hidden="true"><line x1="0" x2="28" y1="5" y2="5" '
        f'stroke="{_COLOURS[i % 5]}" stroke-width="2"'
        + (f' stroke-dasharray="{_DASHES[i % 5]}"' if _DASHES[i % 5] else "")
        + f"/></svg> {t(name)}</li>"
        for i, name in enumerate(label)
    )
    return (
        f'<figure><svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-labelledby="chart-t">'
        f'<title id="chart-t">{t(chart)}</title>{"".join(parts)}</svg>'
        f'<figcaption><ul class="legend">{legend}</ul>{t(caption)}</figcaption></figure>'
    )
