// The cards, drawn: each suit a shape of its own (and a colour of its own: red and black, or four colours
// when the page is asked for them), the rank in two corners and big in the middle. A card's face is a
// picture for the eyes only: the button around it is named by the card ("A♠", "10♥").

const SVG = "http://www.w3.org/2000/svg";

const SUIT_PATHS = {
  S: "M50 6C63 27 94 41 94 62C94 76 83 84 72 84C63 84 56 79 53 72C54 83 58 90 67 95H33C42 90 46 83 47 72" +
     "C44 79 37 84 28 84C17 84 6 76 6 62C6 41 37 27 50 6Z",
  H: "M50 92C22 70 6 53 6 33C6 18 17 8 30 8C40 8 47 14 50 22C53 14 60 8 70 8C83 8 94 18 94 33" +
     "C94 53 78 70 50 92Z",
  D: "M50 4L86 50L50 96L14 50Z",
  C: "M50 6A21 21 0 0 1 67 40A21 21 0 1 1 56 70C57 81 61 89 68 95H32C39 89 43 81 44 70A21 21 0 1 1 33 40" +
     "A21 21 0 0 1 50 6Z",
};

export function suitIcon(suit, cls = "pip") {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", cls);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", SUIT_PATHS[suit] || SUIT_PATHS.S);
  svg.append(path);
  return svg;
}

function corner(card, where, labels) {
  const span = document.createElement("span");
  span.className = `corner ${where}`;
  const rank = document.createElement("b");
  rank.textContent = card.j ? labels.joker_mark || "★" : card.r;
  span.append(rank);
  if (!card.j) span.append(suitIcon(card.s, "corner-pip"));
  return span;
}

// The face of `card` ({c, g, r, s, red, j}): a picture, hidden from screen readers. Its rank `r` is written
// as the page's language writes it (the queen is D in German, French and Polish); a court card, known by its
// code `c`, shows that letter big in the middle.
export function face(card, labels = {}) {
  const el = document.createElement("span");
  el.className = `face suit-${card.s}${card.red ? " red" : ""}${card.j ? " joker" : ""}`;
  el.setAttribute("aria-hidden", "true");
  el.append(corner(card, "tl", labels));
  const middle = document.createElement("span");
  middle.className = "middle";
  if (card.j) {
    const word = document.createElement("span");
    word.className = "joker-word";
    word.textContent = card.j === "big" ? labels.big_joker : labels.little_joker;
    middle.append(word);
  } else if ("JQK".includes(card.c[0])) {  // by its code: the rank `r` is in the page's letters (D, B, V, W)
    const big = document.createElement("b");
    big.className = "court";
    big.textContent = card.r;
    middle.append(big, suitIcon(card.s, "court-pip"));
  } else {
    middle.append(suitIcon(card.s, "big-pip"));
  }
  el.append(middle, corner(card, "br", labels));
  return el;
}

// The back of a card, for the cards the other seats hold.
export function back() {
  const el = document.createElement("span");
  el.className = "back";
  el.setAttribute("aria-hidden", "true");
  return el;
}

// A card as text with its suit drawn: for the tracker, the score windows and the last trick.
export function small(card) {
  const el = document.createElement("span");
  el.className = `mini suit-${card.s}${card.red ? " red" : ""}`;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", card.g);
  const rank = document.createElement("b");
  rank.textContent = card.r;
  el.append(rank);
  if (!card.j) el.append(suitIcon(card.s, "mini-pip"));
  return el;
}
