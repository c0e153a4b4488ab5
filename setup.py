"""Build the compiled search cores (``analyzer.search._core``, the two-ended block search, and
``analyzer.search._arms``, the search over layouts with arms, and ``analyzer.search._draw``, the search
of draw games in a fixed boneyard order and of All Fives) where a C compiler is at hand.

All three extensions are optional: where one cannot be built (no compiler, no Python headers) the package
installs without it and searches with the pure-Python core (see ``analyzer/search/core.py``).
Everything else about the package is declared in pyproject.toml.
"""
from setuptools import Extension, setup

HEADERS = [f"analyzer/search/{name}.h" for name in ("_kernel", "_leaf", "_table", "_binding", "_core_kernel")]
#: the kernels each binding links (the pure C searches, no Python: see docs/development.md)
KERNELS = {"_core": ["analyzer/search/_core_kernel.c"]}
#: -g0: no debug information in the installed cores (Python's own flags ask for it: 0.6 MB of the package, not 0.2)
FLAGS = ["-O2", "-g0"]

setup(ext_modules=[Extension(f"analyzer.search.{name}", [f"analyzer/search/{name}.c", *KERNELS.get(name, [])], depends=HEADERS,
                             extra_compile_args=FLAGS, optional=True)
                   for name in ("_core", "_arms", "_draw")]
            + [Extension("analyzer.equity._race", ["analyzer/equity/_race.c"], extra_compile_args=FLAGS,
                         optional=True)])
