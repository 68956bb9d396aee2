// Dragging a card with the mouse, a pen or a finger alike (Pointer Events): a press on a card
// that moved past a few pixels lifts it, a copy of it follows the pointer and the places it
// may be dropped on glow; released over one of them (anything with a `data-piece`) it is
// dropped there. Released anywhere else, or a press that did not move, is a click: the card is
// picked, as a tap or a key picks it. Only a card that may move stops the page from scrolling
// under a finger (`touch-action: none`, in style.css).

const MOVED = { mouse: 5, pen: 8, touch: 10 };  // pixels before a press becomes a drag
let press = null;  // the press going on: { node, piece, id, x, y, ghost }
let swallow = false;  // the click that follows a drag is the drag's, not a pick

// `node` (a card's button naming `piece`) may be dragged; `hooks` say what a drag does:
// lift(piece) shows where it may go, drop(piece, target) plays it there, pick(piece, node)
// picks it, settle() takes the glow away.
export function draggable(node, piece, hooks) {
  node.addEventListener("pointerdown", (event) => {
    if (press || !event.isPrimary || event.button !== 0) return;
    press = { node, piece, hooks, id: event.pointerId, x: event.clientX, y: event.clientY, ghost: null };
    try { node.setPointerCapture(event.pointerId); } catch { /* a pointer already gone */ }
    window.addEventListener("pointermove", moved);
    window.addEventListener("pointerup", released);
    window.addEventListener("pointercancel", cancelled);
  });
  node.addEventListener("click", (event) => {
    if (swallow) { event.stopImmediatePropagation(); event.preventDefault(); }
  }, true);
}

export const dragging = () => Boolean(press && press.ghost);

function lift(event) {
  const { node } = press;
  const box = node.getBoundingClientRect();
  const ghost = node.cloneNode(true);
  ghost.removeAttribute("data-piece");
  ghost.removeAttribute("data-key");
  ghost.removeAttribute("id");
  ghost.classList.remove("picked", "target", "playable");
  ghost.classList.add("ghost");
  ghost.setAttribute("aria-hidden", "true");
  Object.assign(ghost.style, { width: `${box.width}px`, height: `${box.height}px` });
  press.dx = event.clientX - box.left;
  press.dy = event.clientY - box.top;
  press.ghost = ghost;
  document.body.append(ghost);
  node.classList.add("lifted");
  press.hooks.lift(press.piece);
}

function follow(event) {
  press.ghost.style.transform = `translate(${event.clientX - press.dx}px, ${event.clientY - press.dy}px)`;
}

function moved(event) {
  if (!press || event.pointerId !== press.id) return;
  if (!press.ghost) {
    const far = Math.hypot(event.clientX - press.x, event.clientY - press.y);
    if (far < (MOVED[event.pointerType] || MOVED.touch)) return;
    lift(event);
  }
  event.preventDefault();
  follow(event);
}

function place(event) {  // the piece under the pointer, the lifted card's copy aside
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const target = under && under.closest ? under.closest("[data-piece]") : null;
  return target ? target.dataset.piece : null;
}

function end() {
  window.removeEventListener("pointermove", moved);
  window.removeEventListener("pointerup", released);
  window.removeEventListener("pointercancel", cancelled);
  const done = press;
  press = null;
  if (done && done.ghost) {
    done.ghost.remove();
    done.node.classList.remove("lifted");
    done.hooks.settle();
  }
  return done;
}

function released(event) {
  if (!press || event.pointerId !== press.id) return;
  const target = press.ghost ? place(event) : null;
  const done = end();
  if (!done.ghost) return;  // a press that did not move: its click picks the card
  swallow = true;
  setTimeout(() => { swallow = false; }, 0);
  if (target && target !== done.piece) done.hooks.drop(done.piece, target);
  else done.hooks.pick(done.piece, done.node);
}

function cancelled(event) {  // the browser took the gesture (a finger scrolling the page)
  if (press && event.pointerId === press.id) end();
}
