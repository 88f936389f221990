"""One exception family, so callers (CLI, server, bots) can tell bad input from bugs."""


class NekobakoError(Exception):
    """Base of every error the engine raises on purpose."""


class InvalidOptions(NekobakoError, ValueError):
    """Options a table cannot be played with; the message is meant for a player."""


class UnknownGame(NekobakoError, ValueError):
    """A game name the registry does not know."""


class MalformedAction(NekobakoError, ValueError):
    """Not an action of this game: text outside its notation, or a value of another type given to
    `State.apply`. Nothing about the position is needed to tell."""


class IllegalAction(NekobakoError, ValueError):
    """An action of this game that the rules do not allow now, or a seat that does not exist or may
    not move. The state is unchanged."""


class BadRecord(NekobakoError, ValueError):
    """A record that cannot be replayed; the message names the entry, its index and why."""

    def __init__(self, message: str, index: int | None = None, entry: str | None = None):
        super().__init__(message)
        self.index = index
        self.entry = entry
