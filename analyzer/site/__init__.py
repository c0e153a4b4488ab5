"""The analysis board as a static site (``domino site -o DIR``, docs/site.md): the board's page and script,
Pyodide (from its npm package) and the project's own Python, run in the browser by a Web Worker that answers
the page's ``/api/*`` calls through the server's own table of routes (``analyzer.server.api``).

``link`` is the record-in-a-link codec (``#r=`` deflated and base64url-encoded, ``&m=g1.15``); ``build``
lays out the folder. Nothing here knows a web framework."""
