// The SVG helpers the card faces share (cards.js, cards_salzburg.js, cards_spanish.js): an
// element built with createElementNS from fixed data, never from markup strings, and a
// deck's hidden sprite of suit symbols.

const NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) if (c) node.append(c);
  return node;
}

// The hidden <svg id={id}> at the top of the page holding the <defs>: symbol(suit) for each
// of suits, then the definitions extra() returns; once per document.
export function ensureSprite(id, suits, symbol, extra = () => []) {
  if (document.getElementById(id)) return;
  const defs = svg("defs");
  for (const s of suits) defs.append(symbol(s));
  defs.append(...extra());
  const sprite = svg("svg", { id, "aria-hidden": "true", focusable: "false",
    style: "position:absolute;width:0;height:0;overflow:hidden" }, defs);
  document.body.prepend(sprite);
}
