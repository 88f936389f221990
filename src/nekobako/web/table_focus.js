// Keyboard players keep their place at a table: the control they pressed is disabled or gone after
// a move, so the focus would fall back to the top of the page; it goes to the board's next move
// instead (only after keyboard use, so pointer users' pages never jump).

// Where the focus goes when the control that had it is gone (a move answered, a bot added, the
// game started or over): the results' heading when they just appeared; else the board's next
// move — Start, the hand's Tab stop, the move's controls; else any enabled control; else the
// page's heading. A keyboard player put anywhere but on a move during play is waiting: the focus
// stays parked there and comes to their next move, or to the results, unless they moved it.
const MOVES = [
  "[data-key=start]:not(:disabled)",
  '[data-first-stop] button:not(:disabled):not([tabindex="-1"])',
  "[data-testid=controls] button:not(:disabled)",
];
const ANY = "button:not(:disabled), select:not(:disabled)";

export class FocusKeeper {
  constructor() {
    this.keyboardUsed = false;
    this.refocus = false; // a keyboard player waits for their next move: the focus goes to it when it comes
    this.parkedAt = null; // where the focus was put while waiting (moved from there by the player: no longer waiting)
    this.onKeyDown = () => (this.keyboardUsed = true);
    this.onPointerDown = () => (this.keyboardUsed = false);
    document.addEventListener("keydown", this.onKeyDown, true);
    document.addEventListener("pointerdown", this.onPointerDown, true);
  }

  // A move was sent: a keyboard player waits for the next one.
  sent() {
    this.refocus = this.keyboardUsed;
  }

  // After a drawing. `wasHere`: the focus was on the table page before it; `overNow`: the results
  // just appeared; `playing`: the game is on (a view is drawn); `sending`: a move is on its way.
  next({ wasHere, overNow, playing, sending }, { board, results, header }) {
    const active = document.activeElement;
    // a control that became disabled under the focus (patched in place) counts as lost too
    const lost = !active || active === document.body || !active.isConnected || active.disabled === true;
    const parked = this.refocus && active === this.parkedAt;
    if (!(lost && (wasHere || this.refocus)) && !parked) return;
    if (sending) return;
    const targets = overNow
      ? [results.querySelector("h2")]
      : [...MOVES.flatMap((q) => [...board.querySelectorAll(q)]), ...board.querySelectorAll(ANY)];
    for (const target of targets) {
      target?.focus();
      if (target && document.activeElement === target) {
        this.park(target, playing && !overNow && !MOVES.some((q) => target.matches(q)));
        return;
      }
    }
    if (!lost) return;
    header.querySelector("h1")?.focus();
    this.park(document.activeElement, true);
  }

  park(place, waiting) {
    this.parkedAt = place;
    this.refocus = waiting && this.keyboardUsed;
  }

  close() {
    document.removeEventListener("keydown", this.onKeyDown, true);
    document.removeEventListener("pointerdown", this.onPointerDown, true);
  }
}
