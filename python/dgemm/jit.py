#===- jit.py - the JIT's environment controls, seen from Python ----------===#
"""The runtime reads these environment variables once, at its first call
(set them before; ``docs/runtime.md``):

- ``DGEMM_CACHE_DIR``: the disk cache (default ``~/.cache/dgemm``);
- ``DGEMM_DISABLE_CACHE=1``: no disk cache (kernels are still kept in
  memory: one compile per kernel per process);
- ``DGEMM_PRINT_CONFIGS=1``: a line on stderr per distinct kernel when it is
  first compiled or loaded: shape, config, kernel name;
- ``DGEMM_DUMP_IR=<dir>``: every pipeline stage's IR and the PTX of each
  compiled kernel, as files in ``<dir>``;
- ``DGEMM_LOG=1`` (or 2): cache misses, disk hits, compiles and module loads
  with their times (2: also every in-memory hit) on stderr.

:func:`jit_settings` reports what the runtime uses. The Python layer itself
logs under ``DGEMM_LOG`` (read at the time of the message) the scale layout
conversions it makes, once per kind per process.
"""
import ctypes
import os
import sys
import threading

from . import _lib

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("", "0", "false", "no", "off")


def log_level(environ=None):
    """DGEMM_LOG as a level 0..2, parsed as the runtime parses it (a value
    not understood counts as 1)."""
    v = (environ if environ is not None else os.environ).get("DGEMM_LOG", "").strip().lower()
    if v in _FALSE:
        return 0
    if v in _TRUE:
        return 1
    try:
        return max(0, min(int(v), 2))
    except ValueError:
        return 1


_logged = set()
_logged_lock = threading.Lock()


def log_once(key, message):
    """Writes ``dgemm: message`` to stderr the first time ``key`` is logged
    in this process, when DGEMM_LOG >= 1. Returns True if written."""
    if log_level() < 1:
        return False
    with _logged_lock:
        if key in _logged:
            return False
        _logged.add(key)
    sys.stderr.write("dgemm: %s\n" % message)
    sys.stderr.flush()
    return True


def jit_settings():
    """The runtime's settings, as a dict of strings: ``cache_dir`` (empty:
    memory only), ``disable_cache``, ``print_configs``, ``dump_ir``,
    ``log``. Loads the library; needs no GPU."""
    lib = _lib.load()
    buf = ctypes.create_string_buffer(8192)
    _lib.check(lib.dgemm_jit_settings(buf, len(buf)), "dgemm_jit_settings", lib)
    out = {}
    for part in buf.value.decode("utf-8", "replace").split("; "):
        k, _, v = part.partition("=")
        out[k] = v
    return out


def _reset_for_tests():
    with _logged_lock:
        _logged.clear()


__all__ = ["jit_settings", "log_level", "log_once"]
