// Tiny DOM helpers: build elements from data, no framework.

// h("button", {class: "x", onclick: fn, disabled: true}, "text", child, [more children])
// Attributes: `class`, `text`, `html` is not supported on purpose (no injection); `on<event>`
// registers a listener; `dataset` sets data-*; booleans set/omit the attribute; `null` skips.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      listen(el, key.slice(2), value);
    } else if (key === "class") {
      el.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
    } else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) el.dataset[k] = v;
    } else if (key === "style" && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) el.style.setProperty(k, v);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else if (key === "value") {
      el.value = value;
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

// Listeners are kept in a table on the element and called through one dispatcher per event type,
// so `patch` can hand an element that stays in the page the newest drawing's listeners.
function dispatch(event) {
  this.__on?.[event.type]?.call(this, event);
}
export function listen(el, type, fn) {
  el.__on ||= {};
  if (!el.__on[type]) el.addEventListener(type, dispatch);
  el.__on[type] = fn;
}

// Bring `el`'s children in line with freshly drawn ones, changing only what differs: nodes that
// stay keep their place in the page (focus, scroll position, a screen reader's reading position,
// a running animation), new ones are put in, gone ones taken out (issue 17: the page patches
// what changed instead of rebuilding). Elements with a `data-key` pair up by key wherever they
// are (a table card stays itself when a new one comes before it; only a real reordering moves
// one), the others by position and tag. Closures over drawn elements must not be kept (the drawn
// ones may be dropped): read the state they changed instead.
export function patch(el, ...children) {
  const fresh = [];
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    fresh.push(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  patchChildren(el, fresh);
  return el;
}

const keyOf = (node) => (node.nodeType === 1 ? node.getAttribute("data-key") : null);

function patchChildren(parent, fresh) {
  const keyed = new Map();
  for (const child of parent.childNodes) if (keyOf(child) !== null) keyed.set(keyOf(child), child);
  let at = parent.firstChild; // the first old node not yet paired
  for (const node of fresh) {
    const key = keyOf(node);
    let match = null;
    if (key !== null) {
      const old = keyed.get(key);
      if (old?.nodeName === node.nodeName) match = old;
      keyed.delete(key);
    } else if (at && keyOf(at) === null && at.nodeType === node.nodeType && at.nodeName === node.nodeName) match = at;
    if (match === at && match) at = at.nextSibling;
    else if (match)
      parent.insertBefore(match, at); // moved: the cards' order changed
    else if (at && keyOf(at) === null) {
      const next = at.nextSibling;
      parent.replaceChild(node, at); // another kind of node in this place
      at = next;
      continue;
    } else {
      parent.insertBefore(node, at); // new (before the old keyed one here, which may pair later)
      continue;
    }
    patchNode(match, node);
  }
  while (at) {
    const next = at.nextSibling;
    at.remove(); // gone
    at = next;
  }
}

function patchNode(old, node) {
  if (old.nodeType !== 1) {
    if (old.nodeValue !== node.nodeValue) old.nodeValue = node.nodeValue;
    return;
  }
  for (const { name } of [...old.attributes]) {
    // a <details> the reader opened stays open
    if (!node.hasAttribute(name) && !(name === "open" && old.nodeName === "DETAILS")) old.removeAttribute(name);
  }
  for (const { name, value } of node.attributes) {
    if (old.getAttribute(name) === value) continue;
    // the page's Content-Security-Policy refuses a style attribute set as text; CSSOM is allowed
    if (name === "style") old.style.cssText = node.style.cssText;
    else old.setAttribute(name, value);
  }
  for (const [type, fn] of Object.entries(node.__on || {})) listen(old, type, fn);
  if (old.__on) for (const type of Object.keys(old.__on)) if (!node.__on?.[type]) old.__on[type] = null;
  if ("value" in node && old.value !== node.value && document.activeElement !== old && old.nodeName !== "BUTTON")
    old.value = node.value;
  patchChildren(old, [...node.childNodes]);
}

// An SVG element (shapes that must not depend on fonts): attributes are set as given.
const SVG_NS = "http://www.w3.org/2000/svg";
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs))
    if (value !== null && value !== undefined) el.setAttribute(key, value);
  return append(el, children);
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// A labelled form field: the label, then its control (`id` ties them).
export function field(id, label, control) {
  return h("div", { class: "field" }, h("label", { for: id }, label), control);
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

// Replace the children of `el` while keeping keyboard focus on the control that had it, when the
// new content has a control with the same `data-key` (re-rendering on every server message must
// not throw the keyboard user back to the top of the page).
export function replaceKeepingFocus(el, ...children) {
  const active = document.activeElement;
  const key = active && el.contains(active) ? active.dataset.key : null;
  clear(el);
  append(el, children);
  if (key) {
    const again = el.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && !again.disabled) again.focus();
  }
}

// The page's one live region (index.html #announcer): what a screen reader should hear, said once.
// Each announcement is a new line replacing the last, so the same words can be said again later.
export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region || !text) return;
  region.replaceChildren(h("p", {}, text));
}

// A group of buttons that is one Tab stop (a hand of cards, a row of tiles): the arrow keys, Home
// and End move among its enabled buttons. `current` (a data-key) is the button Tab reaches, else
// the pressed one, else the first; `remember(key)` keeps the place across redraws.
const STEPS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: "first", End: "last" };
export function roving(group, current = null, remember = null) {
  const enabled = () => [...group.querySelectorAll("button:not(:disabled)")];
  const mark = (chosen) => {
    for (const b of group.querySelectorAll("button")) b.tabIndex = b === chosen ? 0 : -1;
    if (chosen) remember?.(chosen.dataset.key);
  };
  const list = enabled();
  mark(
    list.find((b) => b.dataset.key === current) ||
      list.find((b) => b.getAttribute("aria-pressed") === "true") ||
      list[0],
  );
  listen(group, "keydown", (e) => {
    const step = STEPS[e.key];
    const all = enabled();
    const at = all.indexOf(document.activeElement);
    if (step === undefined || at < 0) return;
    e.preventDefault();
    const next =
      step === "first" ? all[0] : step === "last" ? all[all.length - 1] : all[(at + step + all.length) % all.length];
    mark(next);
    next.focus();
  });
  listen(group, "focusin", (e) => {
    if (e.target.matches("button")) mark(e.target);
  });
  return group;
}

// Show a short message at the bottom of the screen (errors from the server, confirmations); the
// live region says it.
let toastTimer = null;
export function toast(message, kind = "info") {
  const box = document.getElementById("toast");
  announce(message);
  if (!box) return;
  box.textContent = message;
  box.className = `toast show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.className = "toast"), kind === "error" ? 6000 : 3000);
}
