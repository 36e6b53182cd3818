"""Every sentence and label the page shows that the game's own words (`ui/words.py`, `ui/text.py`,
`describe.py`) do not already make: one place, so the page's script holds no English at all.

`LABELS` goes to the page once, when its socket opens (the script looks its labels up by key); the
sentences that depend on the game are made here, on the peer's side, and sent in each snapshot.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pspades.printable import plural
from p2pspades.rules import Card, RuleSet, Trick

#: the page's fixed labels, by the key the script uses
LABELS: dict[str, str] = {
    "app": "p2pspades",
    "connecting": "Connecting to your p2pspades program…",
    "reconnecting": "The connection to your p2pspades program was lost: trying again…",
    "ended": "Your p2pspades program has ended. You can close this tab.",
    "restarting": "Starting the next game…",
    "refused": "This page's address is not valid any more: open the address your p2pspades program printed.",
    "watching": "You are watching: another tab of this page plays. Close it to play here.",
    "playing_here": "This tab plays.",
    "your_hand": "Your hand",
    "table": "The table",
    "seats": "Seats",
    "events": "Events",
    "scores": "Score sheet",
    "tracker": "Cards played",
    "last_trick": "Last trick",
    "help": "Keys",
    "coach": "Coach",
    "wait_longer": "Wait longer",
    "leave": "Leave",
    "close": "Close",
    "continue": "Continue",
    "records": "Hand records",
    "records_hint": "the whole game, hand by hand, as the verifier proves it (opens in a new tab)",
    "confirm_card": "Ask before a card is played",
    "four_colours": "Four-colour suits",
    "play_card": "Play it",
    "choose_again": "Choose again",
    "pass_cards": "Pass the marked cards",
    "clear_marks": "Clear the marks",
    "yes_leave": "Leave",
    "no_stay": "Keep playing",
    "dealer": "dealer",
    "your_turn_mark": "to play",
    "thinking": "thinking…",
    "you": "You",
    "won": "won",
    "bid": "bid",
    "player": "player",
    "side": "side",
    "hand": "hand",
    "total": "total",
    "bags": "bags",
    "points": "points",
    "made": "made",
    "set": "set",
    "per_hand": "points per hand",
    "nils": "nils made / failed",
    "blind_nils": "blind nils made / failed",
    "played": "played",
    "still_out": "still out (not in your hand)",
    "no_cards": "no cards",
    "nothing_yet": "nothing yet",
    "no_trick_yet": "No trick has been completed yet.",
    "no_hand_yet": "No hand has finished yet.",
    "not_dealt": "No hand has been dealt yet.",
    "led": "led",
    "takes": "took the trick",
    "seat": "seat",
    "name": "name",
    "fingerprint": "key fingerprint",
    "state": "state",
    "free": "free",
    "rules": "Rules",
    "seated": "Seated players",
    "start": "Start",
    "accept": "Accept",
    "decline": "Decline",
    "seat_bot": "Seat a bot here",
    "remove": "Remove",
    "level": "Level",
    "switch_side": "Switch side",
    "lobby_keys": "↑/↓ seat · b bot · x out · l level · s side",
    "menu": "Windows",
    "options": "Options",
    "top_card": "Top card of the pile",
    "marked": "marked for the pass",
    "legal": "may be played",
    "again": "Play again",
    "in_tab": "in this tab",
    "big_joker": "big joker",
    "little_joker": "little joker",
    "joker_mark": "★",
}

#: the keys the page knows, as the help window lists them (the terminal's, less what a browser keeps)
HELP: tuple[tuple[str, str], ...] = (
    ("click, or ←/→ and Enter", "play a card (only the cards you may play are lit)"),
    ("qh, 10s, as, bj…", "type a card code, then Enter, to play that card"),
    ("Backspace / Esc", "correct / clear a typed code; Esc: choose again"),
    ("bids", "click a bid, or ←/→ and Enter, or type a number; n = nil"),
    ("blind nil", "y declares blind nil, n says no (asked before the deal)"),
    ("draw pile", "k keeps the top card, d discards it"),
    ("nil card pass", "click (or Space) marks a card, Enter passes them, Esc clears"),
    ("s, l, p", "the score sheet; the last trick; the cards played and still out"),
    ("h", "the coach's choice, from your cards; h again: its numbers"),
    ("any key or click", "after a trick: go on at once (it stays a moment)"),
    ("w", "wait longer for a seat that stopped answering"),
    ("?", "this help · Esc closes a window"),
)

#: the page's buttons for playing again, by the kind of command the terminal prints for it
AGAIN: dict[str, tuple[str, str]] = {
    "rematch": ("Rematch", "the same table, rules and bots; each player back in their seat"),
    "carry_on": ("Carry on with a bot", "a new game from this one's scores, your bot in the empty seat"),
    "join": ("Join again", "sit down again once the host opens the table again"),
    "new": ("New game", "another game against the bots, with the same options"),
}


def tabs(open_tabs: int) -> str:
    """The terminal's status line: how many tabs show the page."""
    return "no page open" if not open_tabs else f"page open in {plural(open_tabs, 'tab')}"


def status_line(url: str, open_tabs: int, prompt: str) -> str:
    """The one line the terminal keeps while the page plays."""
    where = tabs(open_tabs) if open_tabs else f"no page open: {url}"
    return " · ".join(part for part in (where, prompt, "Ctrl-C leaves") if part)


def url_lines(url: str, opened: bool) -> list[str]:
    """What the command prints about the page when it starts."""
    first = f"the game is in your browser: {url}"
    if opened:
        return [first, "(a browser tab was opened for it; Ctrl-C here leaves the game)"]
    return [first, "(open it in your browser; only this machine can; Ctrl-C here leaves the game)"]


def queen_key() -> str:
    return "q is the rank of a queen: the Leave button leaves the game"


def watching_refused() -> str:
    return "this tab watches: the game is played in the tab that opened first"


def stale() -> str:
    return "that moment has passed: choose again"


def trick_title(rules: RuleSet, phase: str, number: int | None) -> str:
    """The table's caption: "Trick 3 of 13", "Bidding", "Blind nil", "Draw pile", "Table"."""
    if number is not None:
        return f"Trick {number} of {rules.tricks_per_hand}"
    titles = {"bid": "Bidding", "blind": "Blind nil", "draw": "Draw pile", "pass": "Nil card pass"}
    return titles.get(phase, "Table")


def trick_caption(names: Sequence[str], me: int, trick: Trick | None, mode: str, turn: int | None) -> str:
    """Under the trick: who led and who is winning, who leads next, or who took the last trick."""
    def who(seat: int) -> str:
        return "You" if seat == me else names[seat]

    if trick is None:
        if turn is None:
            return ""
        return "your turn" if turn == me else f"{names[turn]}'s turn"
    if mode == "last":
        return f"last trick to {who(trick.winner)}" if trick.winner is not None else ""
    led = f"led by {who(trick.leader)}"
    if trick.winner is None or len(trick.plays) < 2:
        return led
    return f"{led} · {who(trick.winner)} winning"


def lead_caption(names: Sequence[str], me: int, leader: int | None) -> str:
    if leader is None:
        return ""
    return "You lead" if leader == me else f"{names[leader]} leads"


def trick_told(names: Sequence[str], me: int, trick: Trick, number: int) -> str:
    """The live region's words for a completed trick: "trick 3 to West: West A♥, North 2♥, …"."""
    def who(seat: int) -> str:
        return "you" if seat == me else names[seat]

    winner = "nobody" if trick.winner is None else who(trick.winner)
    plays = ", ".join(f"{who(seat)} {card.glyph}" for seat, card in trick.plays)
    return f"trick {number} to {winner}: {plays}"


def title(table: str, rules: str, hand: int | None, spades_broken: bool) -> str:
    """The page's title: "p2pspades · Kitchen table · classic to 500 · hand 3 · ♠ broken"."""
    parts = ["p2pspades", *([table] if table.strip().lower() not in ("", "p2pspades") else []), rules]
    if hand is not None:
        parts.append(f"hand {hand}")
        if spades_broken:
            parts.append("♠ broken")
    return " · ".join(parts)


def bot_of(owner: str | None) -> str:
    """A bot's seat: whose machine runs it (None: ours), the player who can read its cards."""
    return "your bot" if owner is None else f"bot of {owner}"


def side_word(ours: bool) -> str:
    return "us" if ours else "them"


def no_contract(label: str, bidding: bool) -> str:
    """A side's contract line before every bid is in."""
    return f"{label}: " + ("bidding…" if bidding else "-")


def over_title() -> str:
    return "Game over"


def leaving() -> str:
    """The terminal's line when Ctrl-C leaves the game the page shows."""
    return "^C: leaving"


def seat_line(bid: str, won: int | None) -> str:
    """Under a seat's name: "bid 4 · won 1", "bid …" while it bids."""
    if bid == "-" and won is None:
        return ""
    return f"bid {bid}" + (f" · won {won}" if won is not None else "")


def your_turn(kind: str) -> str:
    """Whose turn it is when it is ours, for the live region (the decision's kind)."""
    return {"bid": "Your turn to bid", "play": "Your turn to play a card", "pass": "Your turn to pass cards",
            "blind": "Blind nil? Decide before you see your cards", "draw": "Your turn to draw"
            }.get(kind, "Your turn")


def hand_title(cards: int, passing: bool) -> str:
    if not cards:
        return "Your hand"
    if passing:
        return f"Your hand ({cards}) · click the cards to pass, then pass them"
    return f"Your hand ({cards})"


def no_cards(phase: str) -> str:
    if phase == "blind":
        return "not dealt yet: blind nil is decided before anybody sees a card"
    if phase == "draw":
        return "no cards yet: draw from the pile"
    return "no cards"


def bid_question(rules: RuleSet) -> str:
    return "How many tricks will you take?" + (" (nil: none at all)" if rules.nil else "")


def blind_question(trails_by: int, rules: RuleSet, blind_bids: Sequence[int]) -> list[str]:
    lines = [f"Your side trails by {trails_by}. Bid blind nil, before you see your cards?",
             f"Blind nil scores +{rules.blind_nil_value} if you take no trick, -{rules.blind_nil_value} "
             "if you take one."]
    if blind_bids:
        lines.append(f"Or bid {blind_bids[0]} or more tricks blind: your side's contract then scores double, "
                     "made or failed.")
    return lines


def draw_question(top: Card | None, left: int) -> list[str]:
    return [f"{plural(left, 'card')} left in the pile",
            "keep: the next card is discarded unseen · discard: you get the next one unseen"]


def dialog_title(kind: str, hand: int | None) -> str:
    label = {"bid": "Your bid", "blind": "Blind nil?", "draw": "Draw pile"}.get(kind, "")
    return label + (f" (hand {hand})" if hand is not None else "")


def pass_button(size: int, marked: int) -> str:
    return f"Pass {plural(size, 'card')} ({marked} marked)"


def confirm_question(card: Card) -> str:
    return f"Play {card.glyph}?"


def summary_title(number: int | None) -> str:
    return f"Hand {number} is over" if number is not None else "Hand summary"


def scored(won: int, scored: int) -> str:
    return f"{won} (scored {scored})" if scored != won else str(won)


def side_total(total: int, bags: int | None) -> str:
    return f"total {total}" + (f", {plural(bags, 'bag')}" if bags is not None else "")


def audited(hands: int, failed: int) -> str:
    word = "passed" if not failed else f"passed, {failed} with violations"
    return f"{plural(hands, 'hand')} audited: {hands - failed} {word}"


def ended_by(termination: str) -> str:
    return f"ended by: {termination.replace('_', ' ')}"


def target(points: int) -> str:
    return f"target {points}"


def penalty(name: str, what: str, renege: str) -> str:
    return f"{name}: {what} (penalty: {renege})"


def quit_question(only_bots: bool, resumable: bool) -> list[str]:
    """The question before leaving a game, in the page's words (the terminal's own, less its keys)."""
    if not only_bots:
        return ["Leave the game now? The others wait for your seat, then vote that you stopped answering, "
                "which ends the game; resume before that to play on."]
    if resumable:
        return ["Leave the game now? Every other seat is your bot: they stop with you, and the command "
                "printed as you leave carries the game on later."]
    return ["Leave the game now? Every other seat is your bot, in memory: the game ends here, and its log "
            "keeps what was played so far."]


def rules_help(described: str, target_points: int) -> str:
    return f"Rules: {described}, to {target_points}. Every card is verified as it is played; every hand is " \
           "audited at its end."


def starting(kind: str) -> str:
    label = AGAIN.get(kind, ("", ""))[0] or kind
    return f"Starting: {label}…"


def web_only(option: str) -> str:
    return f"{option} goes with --web"
