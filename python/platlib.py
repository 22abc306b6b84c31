"""Prints the interpreter's package directory relative to an install prefix (python/CMakeLists.txt)."""
import sysconfig

scheme = sysconfig.get_default_scheme() if hasattr(sysconfig, "get_default_scheme") else None
path = sysconfig.get_path("platlib", scheme, vars={"base": "PREFIX", "platbase": "PREFIX"})
# Debian's posix_local scheme installs under <base>/local: strip it so that the caller's prefix
# (e.g. /usr/local) is used as given.
if scheme == "posix_local":
    path = path.replace("PREFIX/local/", "PREFIX/", 1)
print(path.replace("PREFIX/", "", 1))
