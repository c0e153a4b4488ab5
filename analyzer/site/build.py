"""``domino site -o DIR``: the analysis board as a folder any static host serves (docs/site.md).

The folder holds the board's page and scripts (``analyzer/server/static``, the page's addresses made
relative so it works under any path), this package's scripts (``static/``: the worker that runs Pyodide and
the transport that hands the board's ``/api/*`` calls to it), Pyodide's own files from its npm package
(never a CDN), one zip of the project's Python and its pure-Python dependencies (no compiled core: the
browser runs the pure-Python search) with the package's data read only by some calls beside it as lazy files,
the bundled records, ``site.json`` naming every file and its size and the build's version (the page shows what
is loading and how much), the web app manifest, and ``sw.js``, the service worker that keeps every file a
visit reads in a cache named by that version (a second visit reads nothing from the network, offline too)."""
from __future__ import annotations

import dataclasses
import errno
import glob
import hashlib
import importlib.metadata
import io
import json
import os
import pathlib
import shutil
import sys
import zipfile

from ..search.wasm import wasm_modules

__all__ = ["SiteError", "Site", "build_site", "find_pyodide", "bundle_python", "python_files", "wasm_files",
           "PYODIDE_FILES", "DEPENDENCIES", "PYODIDE_VERSION", "NOT_READ", "LAZY"]

HERE = pathlib.Path(__file__).resolve().parent
PACKAGE = HERE.parent                                  # analyzer/
BOARD_STATIC = PACKAGE / "server" / "static"
SITE_STATIC = HERE / "static"

#: The Pyodide release the site is built and tested with (package.json at the repository's root pins it).
PYODIDE_VERSION = "0.27.7"
#: What the site takes of Pyodide's npm package: its loader, the WebAssembly interpreter and the standard library
#: (``pyodide.mjs`` and ``package.json`` for Node, bench/site_node.mjs: the browser never reads them).
PYODIDE_FILES = ("pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
                 "package.json")
#: The site's files the browser never reads (the service worker does not cache them).
NOT_READ = ("pyodide/pyodide.mjs", "pyodide/package.json")
#: The package's data read only by some calls (the equity tables, 5 MB: the board's routes read none of them
#: today): kept out of the zip, each a file of its own under ``python/lazy/`` that the worker makes a lazy file
#: at its place in the package (Emscripten's ``createLazyFile``: fetched the first time it is read).
LAZY = ("analyzer/equity/data/", "analyzer/locale/", "babel/global.dat", "babel/locale-data/")
#: The pure-Python distributions the board's code imports in the browser (click is the CLI's only; Starlette
#: the server's; networkx only the command line's tree of lines, ``analysis/lines.py``, so it stays out: 1 MB).
#: MarkupSafe's compiled speed-up is left out: it falls back to its own pure Python.
DEPENDENCIES = ("lark", "jinja2", "markupsafe", "babel")
#: Of Babel (the catalogues' reader and the languages' numbers, for the pipeline's words in the page's language:
#: ``analyzer.i18n``), its code and the CLDR data of the catalogues' languages only (lazy files: read only when a
#: page asks for a language other than English), not the data of its 1,100 other locales.
BABEL_DATA = ("babel/global.dat", *(f"babel/locale-data/{code}.dat" for code in ("root", "en", "es", "pt", "pt_BR", "ru")))
#: What never goes into the zip: compiled cores and their sources, caches, the command line and tests.
_SKIPPED_SUFFIXES = (".so", ".pyd", ".c", ".h", ".pyc", ".o", ".wasm")     # (the .wasm modules: beside it, wasm/)
_SKIPPED_PARTS = {"__pycache__", "tests", "testing"}
#: The records the site offers at first (a reader's own are kept in the browser beside them).
RECORDS = ("seed1.dom", "seed2.dom", "seed1-table.txt", "match-kozel.dom", "match-cuban.dom", "variant-draw.dom",
           "variant-french.dom", "sheet-partnership.dom", "match-quinientos.dom")


class SiteError(Exception):
    """The site cannot be built (Pyodide's files not found, the folder not ours to write); the message says why."""


@dataclasses.dataclass(frozen=True)
class Site:
    """A built site: its folder, each file's size in bytes (relative path: bytes), Pyodide's version, and the
    files a first visit reads (``read``: what the service worker keeps at once; the rest are read only when
    needed, or never by the browser)."""

    folder: pathlib.Path
    sizes: dict
    pyodide: str
    read: tuple = ()

    @property
    def first_visit(self) -> int:
        """The bytes a first visit downloads (every file it reads, once)."""
        return sum(self.sizes[name] for name in self.read)

    @property
    def total(self) -> int:
        return sum(self.sizes.values())


def find_pyodide(start: pathlib.Path | None = None) -> pathlib.Path:
    """The folder of Pyodide's npm package: ``node_modules/pyodide`` in ``start`` or a folder above it, or
    beside this source tree (``npm install`` at the repository's root puts it there)."""
    places = []
    for base in [pathlib.Path(start or os.getcwd()).resolve(), PACKAGE.parent]:
        places += [p / "node_modules" / "pyodide" for p in [base, *base.parents]]
    for place in places:
        if (place / "pyodide.asm.wasm").is_file():
            return place
    raise SiteError("Pyodide's npm package is not installed: run `npm install` in the repository (its package.json "
                    "names pyodide), or give the folder with --pyodide")


def _wanted(relative: pathlib.PurePath) -> bool:
    return not (relative.suffix in _SKIPPED_SUFFIXES or _SKIPPED_PARTS & set(relative.parts[:-1]))


def _distribution_files(name: str):
    """(path in the zip, file on disk) of an installed distribution's importable files."""
    dist = importlib.metadata.distribution(name)
    for entry in dist.files or ():
        relative = pathlib.PurePosixPath(str(entry))
        top = relative.parts[0]
        if top.endswith((".dist-info", ".egg-info", ".data")) or top in ("..", "bin") or not _wanted(relative):
            continue
        if top == "babel" and relative.suffix != ".py" and str(relative) not in BABEL_DATA:
            continue
        path = pathlib.Path(dist.locate_file(entry))
        if path.is_file():
            yield str(relative), path


def _analyzer_files():
    """(path in the zip, file on disk) of this package, without the command line (click) and its compiled
    cores; of the message catalogues (``analyzer/locale``) the pipeline's (``analyzer.po``, read in the worker where
    a page asks for its language: docs/i18n.md), not the board's (the page reads those as JSON, :func:`catalogue_files`);
    the grammar at ``analyzer/grammar`` (where an installed copy has it)."""
    for path in sorted(PACKAGE.rglob("*")):
        relative = path.relative_to(PACKAGE.parent)
        if not (path.is_file() and _wanted(relative)) or relative.parts[1] == "cli":
            continue
        if relative.parts[1] == "locale" and path.name != "analyzer.po":
            continue
        yield relative.as_posix(), path
    try:
        from importlib.resources import files
        grammar = pathlib.Path(str(files("analyzer.grammar")))
    except ModuleNotFoundError:                      # the source tree: grammar/ beside the package
        grammar = PACKAGE.parent / "grammar"
    for path in sorted(grammar.iterdir()):
        if path.is_file() and _wanted(pathlib.PurePath(path.name)):
            yield f"analyzer/grammar/{path.name}", path


#: Where the zip holds the record parser's tables as lark saves them (``notation.reader.saved_parser``): the worker
#: hands them to the reader (``analyzer.site.worker``), which then loads the parser instead of building it from the
#: grammar (in Pyodide 0.2 s instead of 1.8 s, in each of the two workers, on every visit).
SAVED_PARSER = "analyzer/site/parser.saved"


def _saved_parser() -> bytes:
    """The record parser's saved tables (``notation.reader.saved_parser``), kept in the user's cache folder under
    the digest of the grammar and lark's version they were saved from, and taken from there by the next build: lark
    numbers the tables' states differently in each process (equivalent tables, different bytes), and the same
    tree must make the same site (its version is a digest of its files: a new one has every reader download it
    again). Where the folder cannot be written the tables are saved anew each time."""
    from ..notation.reader import saved_parser, saved_parser_head
    from ..outputs import write_atomic
    from ..userdirs import kept_file

    head = saved_parser_head()
    path = kept_file(f"site-parser-{hashlib.sha256(head).hexdigest()[:24]}.saved")
    try:
        if path:
            with open(path, "rb") as fh:
                raw = fh.read()
            if raw.startswith(head):
                return raw
    except OSError:
        pass
    raw = saved_parser()
    if path:
        try:
            write_atomic(path, raw)
        except OSError:
            pass
    return raw


def python_files() -> tuple[dict, dict]:
    """The project's package and its pure-Python dependencies, laid out as site-packages: ``(packed, lazy)``,
    each {path in site-packages: file on disk, or its bytes}; ``lazy`` the files under :data:`LAZY`, kept out of the
    zip. The packed files include the record parser's saved tables (:data:`SAVED_PARSER`)."""
    packed, lazy = {SAVED_PARSER: _saved_parser()}, {}
    sources = list(_analyzer_files())
    for name in DEPENDENCIES:
        try:
            sources += list(_distribution_files(name))
        except importlib.metadata.PackageNotFoundError:
            raise SiteError(f"the site needs {name} installed (pip install {name})") from None
    for arcname, path in sorted(sources):
        (lazy if arcname.startswith(LAZY) else packed).setdefault(arcname, path)
    return packed, lazy


def bundle_python(packed: dict | None = None) -> bytes:
    """One zip of ``packed`` (default: :func:`python_files`'s), which the worker unpacks into its site-packages.
    The same files give the same bytes (fixed dates), so a browser's cache holds."""
    if packed is None:
        packed = python_files()[0]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zipped:
        for arcname, path in sorted(packed.items()):
            info = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zipped.writestr(info, path if isinstance(path, bytes) else path.read_bytes())
    return buffer.getvalue()


def _lock_file(source: pathlib.Path) -> bytes:
    """Pyodide's ``pyodide-lock.json`` without its packages (112 KB: the site loads none of Pyodide's packages,
    whose wheels live on its CDN), which ``loadPyodide`` reads at start."""
    try:
        lock = json.loads((source / "pyodide-lock.json").read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise SiteError(f"{source / 'pyodide-lock.json'} is not Pyodide's lock file (not JSON: {exc})") from None
    return (json.dumps({"info": lock.get("info", {}), "packages": {}}, indent=1) + "\n").encode("utf-8")


def _page() -> str:
    """The board's page for the site: its addresses relative, and the site's scripts (the link codec and the
    transport) loaded before the board's own, which then talk to the worker instead of a server."""
    html = (BOARD_STATIC / "board.html").read_text(encoding="utf-8")
    html = html.replace('"/static/', '"static/')
    site_scripts = ('<script src="site/link.js" defer></script>\n'
                    '<script src="site/transport.js" defer></script>\n')
    first = html.index("<script ")
    html = html[:first] + site_scripts + html[first:]
    html = html.replace('<link rel="stylesheet" href="static/board.css">',
                        '<link rel="stylesheet" href="static/board.css">\n<link rel="stylesheet" href="site/site.css">', 1)
    html = html.replace('<span class="actions">', '<span class="actions">\n    <button type="button" id="copylink" '
                        'title="A link that opens this record at this move (the record inside the link itself)">'
                        'Copy link</button>\n    <button type="button" id="diskopen" title="Open a record file from this '
                        'computer (its text goes into the editor as a new record; Save keeps it in this browser)">'
                        'Open from disk…</button><input type="file" id="diskfile" accept=".dom,.txt,text/plain" hidden>'
                        '\n    <button type="button" id="download" title="Download the text as a record file to this '
                        'computer">Download</button>', 1)
    html = html.replace("</header>", '</header>\n<div id="siteload" class="siteload" role="status" aria-live="polite">'
                        '<progress id="siteprogress" aria-label="the engine loading"></progress>'
                        '<span class="what">Loading the engine…</span>'
                        '<button type="button" id="siteupdate" hidden title="This site was published anew: reload the '
                        'page to use the new version (the text on the board is kept in this browser)">A new version: '
                        'reload</button>'
                        '<input id="sitelink" class="sitelink" type="text" readonly hidden aria-label="the link"></div>', 1)
    # a record link's record, shown as soon as the page has read the link (before the engine is ready): its
    # tags and what the board waits for (transport.js fills it; the board draws nothing it has not been given)
    html = html.replace('<section class="board" aria-label="the board">', '<section class="board" aria-label="the board">'
                        '\n    <div id="sitepreview" class="sitepreview" hidden aria-live="polite"><p class="what"></p>'
                        '<dl class="tags"></dl></div>', 1)
    html = html.replace('<link rel="icon" href="data:,">', '<link rel="icon" href="site/icon.svg" type="image/svg+xml">\n'
                        '<link rel="apple-touch-icon" href="site/icon-192.png">\n'
                        '<link rel="manifest" href="site/manifest.webmanifest">\n'
                        '<meta name="theme-color" content="#2f5d50">', 1)
    for piece in ('id="copylink"', 'id="diskopen"', 'id="siteload"', 'site/site.css', 'id="sitepreview"',
                  'site/manifest.webmanifest'):
        if piece not in html:
            raise SiteError(f"the board's page changed: the site could not add {piece} (analyzer/site/build.py)")
    csp = ("default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; "
           "style-src 'self'; img-src 'self' data:; manifest-src 'self'; base-uri 'none'; form-action 'none'")
    html = html.replace('<meta charset="utf-8">',
                        f'<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="{csp}">', 1)
    return html


def extract_page(fileobj, keywords, comment_tags, options):
    """Babel's extraction method for the site's page (``babel-board.cfg``, the board's catalogue): each text and
    label of the board's page as the site lays it out, with the site's own buttons and lines (``fileobj``, this
    module, is not read: the page is made by :func:`_page`)."""
    from ..server.catalogue import page_messages

    for line, message in page_messages(_page()):
        yield line, "_", message, []


#: Where the site keeps the board's catalogues (``static/catalogue/<lang>.json``, as the server answers them beside
#: the page's scripts): the page reads the one of its language, so none is part of a first visit's bytes (the
#: service worker keeps the one read).
CATALOGUES = "static/catalogue/"


def catalogue_files() -> dict[str, bytes]:
    """The board's catalogue of each language as the page reads it (``analyzer.server.catalogue``): JSON."""
    from ..i18n import LANGUAGES
    from ..server.catalogue import board_catalogue

    return {f"{CATALOGUES}{code}.json": json.dumps(board_catalogue(code), ensure_ascii=False, separators=(",", ":"),
                                                    sort_keys=True).encode("utf-8") for code in LANGUAGES}


def wasm_files() -> dict[str, pathlib.Path]:
    """The compiled kernels' WebAssembly modules the site ships (``wasm/<file>``; those built here,
    :func:`analyzer.search.wasm.wasm_modules`): the worker instantiates them before it imports the package, and
    :mod:`analyzer.search.core` binds them in place of the missing extensions (docs/site.md, "Which core runs where")."""
    return {f"wasm/{path.name}": path for path in wasm_modules().values()}


def build_site(out: str | os.PathLike, pyodide: str | os.PathLike | None = None, force: bool = False,
               records: tuple[str, ...] = RECORDS, records_folder: str | os.PathLike | None = None) -> Site:
    """Lay the site out in ``out`` (a new or empty folder; ``force``: one made by this command before, replaced).
    ``pyodide``: the npm package's folder (default :func:`find_pyodide`). The site is built in a folder of its own
    beside ``out`` (in the same parent, marked :data:`MARKER` while it is partial) and swapped in whole by a
    rename: a build killed or stopped by a full disk leaves the site that was there whole, and its partial folder
    is recognised by the next build as its own and removed. An error writing a file names the file written."""
    folder = pathlib.Path(out)
    if folder.exists() and not folder.is_dir():
        raise SiteError(f"{folder} is a file, not a folder")
    if folder.is_dir() and any(folder.iterdir()):
        if not force:
            raise SiteError(f"{folder} is not empty (give --force to replace a site built there before)")
        if not _ours(folder):
            raise SiteError(f"{folder} is not empty and holds no site.json: it is no site built by `domino site`, "
                            "so nothing there is replaced")
    _recover(folder)
    source = pathlib.Path(pyodide) if pyodide else find_pyodide()
    missing = [name for name in PYODIDE_FILES if not (source / name).is_file()]
    if missing:
        raise SiteError(f"{source} is not Pyodide's npm package (no {', '.join(missing)})")
    version_of_pyodide = json.loads((source / "package.json").read_text(encoding="utf-8")).get("version", "?")
    files: dict[str, bytes | pathlib.Path] = {"index.html": _page().encode("utf-8")}
    for path in sorted(BOARD_STATIC.iterdir()):
        if path.is_file() and path.name != "board.html":
            files[f"static/{path.name}"] = path
    files.update(catalogue_files())
    for path in sorted(SITE_STATIC.iterdir()):
        if path.is_file() and path.name != "sw.js":
            files[f"site/{path.name}"] = path
    for name in PYODIDE_FILES:
        files[f"pyodide/{name}"] = source / name
    files["pyodide/pyodide-lock.json"] = _lock_file(source)
    files.update(wasm_files())
    packed, lazy = python_files()
    python = bundle_python(packed)
    files["python/domino.zip"] = python
    lazy_files = {}
    for arcname, path in lazy.items():
        files[f"python/lazy/{arcname}"] = path
        lazy_files[arcname] = f"python/lazy/{arcname}"
    shelf = pathlib.Path(records_folder) if records_folder else PACKAGE.parent / "records"
    for name in records:
        if (shelf / name).is_file():
            files[f"records/{name}"] = shelf / name
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        building = folder.parent / f".{folder.name}{_BUILDING}{os.urandom(4).hex()}"
        building.mkdir()
    except OSError as exc:
        raise SiteError(f"{folder.parent}: cannot make the site's folder there ({exc.strerror or exc})") from None
    try:
        write_file(building / MARKER, b"a site being built by `domino site`: partial while this file is here\n",
                   folder / MARKER)
        sizes, worker = _lay_out(building, folder, files, python, lazy_files, version_of_pyodide)
        (building / MARKER).unlink()
        _swap(building, folder)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return Site(folder, sizes, version_of_pyodide, tuple(worker["cache"]))


#: The file that marks a site's folder as partial while ``domino site`` builds it (beside the site it replaces).
MARKER = ".domino-site-building"
_BUILDING, _OLD = ".building-", ".replaced-"


def write_file(target: pathlib.Path, content: bytes | pathlib.Path, named: pathlib.Path) -> None:
    """Write ``content`` (bytes, or a file's to copy) to ``target``; an error names ``named``, the file of the
    site being written (never the source it is copied from)."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, pathlib.Path):
            with open(content, "rb") as source, open(target, "wb") as sink:
                shutil.copyfileobj(source, sink, 1 << 20)
        else:
            target.write_bytes(content)
    except OSError as exc:
        raise SiteError(f"{named}: cannot be written ({exc.strerror or exc}); the site that was there is left "
                        "as it was") from None


def _ours(folder: pathlib.Path) -> bool:
    """Whether ``folder`` is a site this command built (its ``site.json``) or a partial one it left (:data:`MARKER`)."""
    return (folder / "site.json").is_file() or (folder / MARKER).is_file()


def _leftovers(folder: pathlib.Path, kind: str) -> list[pathlib.Path]:
    """The folders a build of ``folder`` left beside it (``kind``: being built, or the site it replaced)."""
    if not folder.parent.is_dir():
        return []
    return [p for p in folder.parent.glob(f".{glob.escape(folder.name)}{kind}*") if p.is_dir() and _ours(p)]


def _recover(folder: pathlib.Path) -> None:
    """Mend what a build of ``folder`` killed on its way left: a site moved aside and not yet replaced goes back
    (where ``folder`` is missing), partial builds are removed."""
    for old in _leftovers(folder, _OLD):
        if not folder.exists() and (old / "site.json").is_file():
            os.rename(old, folder)
        else:
            shutil.rmtree(old, ignore_errors=True)
    for partial in _leftovers(folder, _BUILDING):
        shutil.rmtree(partial, ignore_errors=True)


def _exchange(a: pathlib.Path, b: pathlib.Path) -> bool:
    """Swap the folders ``a`` and ``b`` in one step (Linux's ``renameat2`` with ``RENAME_EXCHANGE``); False
    where the system has no such call."""
    if sys.platform != "linux":
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _swap(building: pathlib.Path, folder: pathlib.Path) -> None:
    """Put the site built in ``building`` at ``folder``: a rename where nothing is there (or an empty folder),
    else an exchange of the two in one step (or, without one, the old moved aside, the new renamed in, the old
    removed: a kill between the two renames is mended by the next build, :func:`_recover`)."""
    try:
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
        if not folder.exists():
            os.rename(building, folder)
            return
        if _exchange(building, folder):
            shutil.rmtree(building, ignore_errors=True)         # (the old site, now at the building's name)
            return
        aside = folder.parent / f".{folder.name}{_OLD}{os.urandom(4).hex()}"
        os.rename(folder, aside)
        os.rename(building, folder)
        shutil.rmtree(aside, ignore_errors=True)
    except OSError as exc:
        raise SiteError(f"{folder}: the site built cannot be put in place ({exc.strerror or exc}); the site that "
                        "was there is left as it was") from None


def _lay_out(building: pathlib.Path, folder: pathlib.Path, files: dict, python: bytes, lazy_files: dict,
             version_of_pyodide: str) -> tuple[dict, dict]:
    """Write the site's ``files`` into ``building`` (to become ``folder``), then ``site.json`` and ``sw.js``: each
    file's size and the service worker's table."""
    sizes, digest = {}, hashlib.sha256()
    for name, content in files.items():
        target = building / name
        write_file(target, content, folder / name)
        sizes[name] = target.stat().st_size
        digest.update(f"{name}\0{hashlib.sha256(target.read_bytes()).hexdigest()}\0".encode())
    # the build's version: every file's content; the service worker's cache is named by it, so a new build
    # (any file changed) replaces the cache of the one before whole, and a page never mixes two builds' files
    version = digest.hexdigest()[:16]
    on_demand = [name for name in files if name.startswith(CATALOGUES)]      # (read when needed, one of them)
    read = [name for name in files if name not in NOT_READ and name not in lazy_files.values() and name not in on_demand]
    manifest = {"pyodide": version_of_pyodide, "version": version,
                "python": {"file": "python/domino.zip", "sha256": hashlib.sha256(python).hexdigest()[:16]},
                "records": [name.split("/", 1)[1] for name in files if name.startswith("records/")],
                "wasm": {kernel: f"wasm/{path.name}" for kernel, path in wasm_modules().items()},
                "lazy": lazy_files, "sizes": sizes, "total": sum(sizes.values()),
                "first_visit": sum(sizes[name] for name in read)}
    write_file(building / "site.json", (json.dumps(manifest, indent=1) + "\n").encode("utf-8"), folder / "site.json")
    sizes["site.json"] = (building / "site.json").stat().st_size
    # the service worker, at the site's root (its scope is the folder it is served from, never above): the
    # files it keeps (everything the page reads at start, ``site.json`` too) and those kept when first read
    worker = {"version": version, "cache": sorted(read + ["site.json"]), "lazy": sorted([*lazy_files.values(), *on_demand]),
              "sizes": {name: sizes[name] for name in read + ["site.json"]}}
    write_file(building / "sw.js", ("var SITE = " + json.dumps(worker, indent=0) + ";\n"
                                    + (SITE_STATIC / "sw.js").read_text(encoding="utf-8")).encode("utf-8"), folder / "sw.js")
    sizes["sw.js"] = (building / "sw.js").stat().st_size
    return sizes, worker
