"""One exception family, so callers (CLI, server, bots) can tell bad input from bugs."""


class NekobakoError(Exception):
    """Base of every error the engine raises on purpose."""


class InvalidOptions(NekobakoError, ValueError):
    """Options a table cannot be played with; the message is meant for a player."""


class MalformedAction(NekobakoError, ValueError):
    """Text that is not an action in the game's notation."""


class IllegalAction(NekobakoError, ValueError):
    """A well-formed action that the rules do not allow now. The state is unchanged."""


class BadRecord(NekobakoError, ValueError):
    """A record that cannot be replayed; the message names the entry, its index and why."""

    def __init__(self, message: str, index: int | None = None, entry: str | None = None):
        super().__init__(message)
        self.index = index
        self.entry = entry
