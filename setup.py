"""Build the compiled search core (``analyzer.search._core``) where a C compiler is at hand.

The extension is optional: where it cannot be built (no compiler, no Python headers) the package
installs without it and searches with the pure-Python core (see ``analyzer/search/core.py``).
Everything else about the package is declared in pyproject.toml.
"""
from setuptools import Extension, setup

setup(ext_modules=[Extension("analyzer.search._core", ["analyzer/search/_core.c"],
                             extra_compile_args=["-O2"], optional=True)])
