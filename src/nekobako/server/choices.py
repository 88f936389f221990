"""When did a seat's choices last change? That decides whether an action's `seq` is stale.

A seat answers the position it was shown. Its answer stays valid while its legal actions stay the
same: another seat's simultaneous discard does not change them, so it does not make the answer
stale, while a repeated message (the seat already acted) or an out-of-date one is refused. Chance
positions are skipped: the server fills them at once, nobody ever sees them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine import CHANCE, State
from ..i18n import Message


@dataclass
class ChoiceTracker:
    players: int
    since: list[int] = field(default_factory=list)
    _last: list[tuple[str, ...]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.since:
            self.since = [0] * self.players
            self._last = [()] * self.players

    def copy(self) -> ChoiceTracker:
        return ChoiceTracker(self.players, list(self.since), list(self._last))

    def update(self, state: State, actor: int, seq: int) -> None:
        """Call after each applied entry (`actor` is its seat, `CHANCE` for outcomes); `seq` is the
        number of stored entries so far. (Not `len(state.history)`: a game may write simultaneous
        choices into its history only once everyone has chosen.)"""
        if actor != CHANCE:
            self.since[actor] = seq
        if state.is_chance():
            return
        to_move = set(state.to_move)
        for seat in range(self.players):
            legal = tuple(str(a) for a in state.legal_actions(seat)) if seat in to_move else ()
            if legal != self._last[seat]:
                self._last[seat] = legal
                self.since[seat] = seq

    def stale_reason(self, seat: int, seq: int, current: int) -> Message | None:
        if seq > current:
            return Message("error.seq_ahead", seq=seq, current=current)
        if seq < self.since[seat]:
            return Message("error.seq_stale", seq=seq, since=self.since[seat])
        return None
