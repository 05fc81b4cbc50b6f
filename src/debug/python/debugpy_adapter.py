"""debugpy's adapter (`python -m debugpy.adapter`), with its sockets acknowledging at once.

pydevd, in the debugged program, writes each message as two sends (the Content-Length header,
then the body) on a socket with Nagle's algorithm on, so the body waits for the header's ACK;
the adapter's end delays that ACK by Linux's 40 ms minimum. Every request then takes ~43 ms
(measured: threads, stackTrace, setBreakpoints alike). Asking for an immediate ACK before each
receive here (TCP_QUICKACK does not stay set, so it is asked again each time) takes that to ~1 ms
without touching the debugged program. Only this adapter process is changed; elsewhere (no
TCP_QUICKACK) it is debugpy's adapter as it is.
"""

import runpy
import socket


def _acknowledging(receive):
    def wrapped(self, *args, **kwargs):
        if self.type == socket.SOCK_STREAM and self.family in (socket.AF_INET, socket.AF_INET6):
            try:
                self.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)
            except OSError:
                pass
        return receive(self, *args, **kwargs)

    return wrapped


if hasattr(socket, "TCP_QUICKACK"):
    socket.socket.recv = _acknowledging(socket.socket.recv)
    socket.socket.recv_into = _acknowledging(socket.socket.recv_into)

runpy.run_module("debugpy.adapter", run_name="__main__", alter_sys=True)
