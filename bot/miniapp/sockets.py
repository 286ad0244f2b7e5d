"""Listening sockets of the bot's own servers - the Mini App's, and the webhook's (bot/telegram/webhook.py,
a room below): shared with the other workers of one machine (``SO_REUSEPORT``), and a clear error when the
address cannot be listened on."""

from __future__ import annotations

import socket


class ListenError(OSError):
    """A server's address cannot be listened on (the port taken, an address not of this machine): the bot
    stops at start with this one line (exit status 6)."""


def shared_socket(listen: str, port: int, settings: str) -> socket.socket:
    """A listening, non-blocking TCP socket on ``listen:port`` (port 0: any free one) that other workers may
    bind as well; ``settings`` names what sets the address, for the error (WEBHOOK_LISTEN, WEBHOOK_PORT)."""
    sock = socket.socket(socket.AF_INET6 if ":" in listen else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "SO_REUSEPORT"):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((listen, port))
        sock.listen(128)
        sock.setblocking(False)
    except OSError as e:
        sock.close()
        raise ListenError(f"cannot listen on {listen}:{port} ({settings}): {e.strerror or e}") from e
    except BaseException:
        sock.close()
        raise
    return sock
