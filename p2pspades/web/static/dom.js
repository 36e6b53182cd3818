// Small DOM helpers: build elements, set text only when it changed (so live regions speak only then),
// and keep a list of children in step with a list of items by key (so focus stays on the same element).

export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function setText(el, text) {
  const value = text ?? "";
  if (el.textContent !== value) el.textContent = value;
}

export function setAttr(el, name, value) {
  if (value === null || value === undefined || value === false) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else {
    const text = value === true ? "" : String(value);
    if (el.getAttribute(name) !== text) el.setAttribute(name, text);
  }
}

export function toggle(el, name, on) {
  if (el.classList.contains(name) !== Boolean(on)) el.classList.toggle(name, Boolean(on));
}

// Make `parent`'s children one per item, in order: an element made once per key by `make(item)` and
// brought up to date by `update(el, item)` every time.
export function sync(parent, items, keyOf, make, update) {
  const old = new Map();
  for (const child of parent.children) old.set(child.dataset.key, child);
  let at = 0;
  for (const item of items) {
    const key = String(keyOf(item));
    let el = old.get(key);
    if (el) old.delete(key);
    else {
      el = make(item);
      el.dataset.key = key;
    }
    update(el, item);
    if (parent.children[at] !== el) parent.insertBefore(el, parent.children[at] || null);
    at += 1;
  }
  for (const el of old.values()) el.remove();
}

const drawnFrom = new WeakMap();

// Replace `parent`'s content only when `data` differs from what it was drawn from last time.
export function redraw(parent, data, draw) {
  const key = JSON.stringify(data);
  if (drawnFrom.get(parent) === key) return false;
  drawnFrom.set(parent, key);
  parent.replaceChildren(...[draw(data)].flat(Infinity).filter(Boolean));
  return true;
}
